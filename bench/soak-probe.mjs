import v8 from "node:v8";

/**
 * Loaded into the server by the soak benchmark only (bench/soak.ts spawns
 * `node --expose-gc --import bench/soak-probe.mjs BUILD_DIR/server.js` with an IPC channel);
 * production never loads it. It answers the benchmark's questions about the server's memory over
 * that channel, so nothing is added to the site's code or to its HTTP surface:
 *
 *   { id, type: "memory", gc? }  → { id, usage: process.memoryUsage(), heap: v8 heap statistics },
 *                                   after two full garbage collections when `gc` is set
 *   { id, type: "snapshot", file } → { id, file }: a heap snapshot written there (the server
 *                                   stops for the seconds this takes, and its memory briefly grows)
 *
 * Plain JavaScript: the server runs on plain Node, without a TypeScript loader.
 */

/** @param {{ id: number; type: string; gc?: boolean; file?: string }} message */
function answer(message) {
  try {
    if (message.type === "memory") {
      if (message.gc) {
        // Two passes: the first may only queue finalizers and weak callbacks that free more.
        globalThis.gc?.();
        globalThis.gc?.();
      }
      return { id: message.id, usage: process.memoryUsage(), heap: v8.getHeapStatistics() };
    }
    if (message.type === "snapshot" && message.file) {
      return { id: message.id, file: v8.writeHeapSnapshot(message.file) };
    }
    return { id: message.id, error: `unknown request ${message.type}` };
  } catch (error) {
    return { id: message.id, error: error instanceof Error ? error.message : String(error) };
  }
}

process.on("message", (message) => process.send?.(answer(message)));
// The channel must not keep the server alive on its own (it exits when told to stop anyway).
process.channel?.unref();
