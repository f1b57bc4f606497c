import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { round } from "./lib.ts";

/**
 * The soak bench's memory readings: the probe inside the server (heap and WebAssembly memory),
 * the resident set by kind, and the trend of a series.
 */

export const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

export interface ProbeAnswer {
  id: number;
  error?: string;
  file?: string;
  usage?: NodeJS.MemoryUsage;
}

export function probe(child: ChildProcess) {
  let next = 1;
  const waiting = new Map<number, (answer: ProbeAnswer) => void>();
  child.on("message", (answer: ProbeAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  // A send on a closed channel (the server has exited) is reported by the caller, not thrown here.
  child.on("error", () => {});
  const ask = (question: Record<string, unknown>, timeoutMs = 300_000) =>
    new Promise<ProbeAnswer>((resolve, reject) => {
      const id = next++;
      if (!child.connected) return reject(new Error("the server has exited"));
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the memory probe did not answer ${String(question.type)}`));
      }, timeoutMs);
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.error) reject(new Error(answer.error));
        else resolve(answer);
      });
      child.send({ id, ...question });
    });
  return {
    memory: async (gc = false) => (await ask({ type: "memory", gc })).usage!,
    snapshot: async (file: string) => (await ask({ type: "snapshot", file })).file!,
  };
}

/**
 * Where the resident pages are, from /proc/<pid>/smaps:
 * - `wasm`: WebAssembly linear memories. V8 reserves each as a 10 GiB region of inaccessible
 *   pages — a 2 GiB guard below, then room for the 4 GiB a 32-bit module can address, and guards
 *   above — and opens the part in use read-write: the read-write mapping(s) directly after a
 *   2 GiB `---p` guard and directly before the rest of the reservation. Such a memory only grows;
 *   pages the database engine frees stay mapped.
 * - `malloc`: the C allocator's heaps (glibc): the main one (`[heap]`) and each thread arena's,
 *   64 MiB-aligned regions of 64 MiB whose unused tail is `---p`. Node's Buffers, zlib and brotli
 *   state and V8's own bookkeeping live there; freed memory inside stays resident until the top of
 *   a heap is free.
 * (V8's JavaScript heap is the rest of the anonymous memory, roughly `heapTotal`.)
 */
export function residentByKind(pid: number): { wasm: number; malloc: number } {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
  } catch {
    return { wasm: 0, malloc: 0 };
  }
  const maps: { start: bigint; end: bigint; perms: string; name: string; rssKb: number }[] = [];
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+ *(.*)$/.exec(line);
    if (head) {
      maps.push({
        start: BigInt(`0x${head[1]}`),
        end: BigInt(`0x${head[2]}`),
        perms: head[3]!,
        name: head[4]!,
        rssKb: 0,
      });
    } else if (line.startsWith("Rss:") && maps.length) {
      maps.at(-1)!.rssKb = Number(line.split(/\s+/)[1]);
    }
  }
  const MiB = 1024n ** 2n;
  const GiB = 1024n * MiB;
  const touches = (a: (typeof maps)[number] | undefined, b: (typeof maps)[number] | undefined) =>
    a !== undefined && b !== undefined && a.end === b.start;
  let wasmKb = 0;
  let mallocKb = 0;
  for (const [i, map] of maps.entries()) {
    if (map.name === "[heap]") mallocKb += map.rssKb;
    // A thread arena's heap: read-write from a 64 MiB boundary, the rest of the 64 MiB reserved.
    const next = maps[i + 1];
    if (
      map.perms === "rw-p" &&
      map.name === "" &&
      map.start % (64n * MiB) === 0n &&
      (map.end - map.start === 64n * MiB ||
        (touches(map, next) && next!.perms === "---p" && next!.end - map.start === 64n * MiB))
    )
      mallocKb += map.rssKb;
    if (map.perms !== "---p" || map.end - map.start !== 2n * GiB) continue;
    let j = i + 1;
    let rssKb = 0;
    while (maps[j]?.perms.startsWith("rw") && touches(maps[j - 1], maps[j]))
      rssKb += maps[j++]!.rssKb;
    const rest = maps[j];
    if (
      j > i + 1 &&
      rest?.perms === "---p" &&
      touches(maps[j - 1], rest) &&
      rest.end - map.start >= 8n * GiB
    )
      wasmKb += rssKb;
  }
  return { wasm: wasmKb * 1024, malloc: mallocKb * 1024 };
}

/** Least-squares slope of y over x. */
export function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? 0 : sxy / sxx;
}
