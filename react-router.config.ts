import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR lets two builds (e.g. parallel test runs) live side by side; server.ts reads the same.
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
