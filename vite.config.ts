import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { constants } from "node:zlib";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

/**
 * Which shared chunk a browser module belongs to. Left alone, the bundler makes one chunk per
 * set of routes sharing a module — over forty files for the home page, each one more request on
 * a slow mobile link. Instead: the framework (React, React Router) in one long-cached file, the
 * public site's shared code in one, the admin's in another; route modules keep their own files
 * and lazily loaded code (the rich-text editor) keeps its own chunks.
 */
function clientChunk(id: string): string | null {
  const path = id.replaceAll("\\", "/");
  if (/\/node_modules\/(react|react-dom|scheduler|react-router)\//.test(path)) return "framework";
  // Loaded on demand, each in its own chunk: Quill (admin editor), the hero particles.
  if (/\/node_modules\/quill\/|\/app\/components\/site\/particle-field\.ts$/.test(path))
    return null;
  if (/\/app\/components\/admin\//.test(path)) return "admin";
  if (/\/app\/components\/ui\/(alert-dialog|checkbox|table)\.tsx$/.test(path)) return "admin";
  if (
    /\/app\/lib\/(admin-|course-form|category-form|partner-form|editor-html|image-upload)/.test(
      path,
    )
  )
    return "admin";
  if (/\/app\/(components|lib)\//.test(path)) return "site";
  if (/\/node_modules\/lucide-react\//.test(path)) return "site";
  return null;
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild
    ? // The SSR bundle's entry is our Express app, so the server, its database handle
      // and the React Router handler live in one module graph (one database instance).
      { rollupOptions: { input: "./server/app.ts" } }
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: "framework", test: (id) => clientChunk(id) === "framework", priority: 3 },
                {
                  name: "site",
                  test: (id) => clientChunk(id) === "site",
                  priority: 2,
                  minShareCount: 2,
                },
                { name: "admin", test: (id) => clientChunk(id) === "admin", priority: 1 },
              ],
            },
          },
        },
      },
  server: { watch: { ignored: ["**/data/**", "**/test-results/**"] } },
  plugins: [
    tailwindcss(),
    reactRouter(),
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
}));
