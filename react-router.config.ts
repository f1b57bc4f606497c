import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets two builds (e.g. parallel test runs) live side by side; server.ts reads the same.
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // Route middleware: the admin layout's guard (decision 0026). Loaders and actions get a
  // RouterContextProvider as `context` (server/react-router-handler.server.ts makes it).
  future: { v8_middleware: true },
} satisfies Config;
