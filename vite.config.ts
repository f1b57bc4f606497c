import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { constants } from "node:zlib";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { clientChunks, clientModulesReport } from "./vite/client-chunks.ts";

export default defineConfig(({ isSsrBuild }) => {
  const chunks = clientChunks(import.meta.dirname);
  return {
    build: isSsrBuild
      ? // The SSR bundle's entry is our Express app, so the server, its database handle
        // and the React Router handler live in one module graph (one database instance).
        { rollupOptions: { input: "./server/app.ts" } }
      : {
          rolldownOptions: {
            output: {
              // Per route, as React Router and Vite split it, with React and React Router in one
              // long-cached file (vite/client-chunks.ts, decision 0028).
              codeSplitting: { groups: chunks.groups },
            },
          },
        },
    server: { watch: { ignored: ["**/data/**", "**/test-results/**"] } },
    plugins: [
      tailwindcss(),
      reactRouter(),
      ...(isSsrBuild ? [] : [chunks.plugin, clientModulesReport(import.meta.dirname)]),
      // Browser files are compressed once, at build time, at the best settings (brotli 11, gzip 9);
      // server.ts sends the copy the browser takes. Compressing per request could afford neither.
      ...(isSsrBuild
        ? []
        : [
            compression({
              include: /\.(js|css|svg)$/,
              threshold: 1024,
              algorithms: [
                defineAlgorithm("gzip", { level: 9 }),
                defineAlgorithm("brotliCompress", {
                  params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
                }),
              ],
              logLevel: "silent",
            }),
          ]),
    ],
  };
});
