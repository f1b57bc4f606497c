import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ isSsrBuild }) => ({
  // The SSR bundle's entry is our Express app, so the server, its database handle
  // and the React Router handler live in one module graph (one database instance).
  build: isSsrBuild ? { rollupOptions: { input: "./server/app.ts" } } : undefined,
  server: { watch: { ignored: ["**/data/**", "**/test-results/**"] } },
  plugins: [tailwindcss(), reactRouter()],
}));
