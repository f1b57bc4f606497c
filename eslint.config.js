import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The house rules that a reviewer should not have to remember (docs/architecture.md, Layers):
 * import boundaries between the browser and the server, one reader of the environment, no import
 * cycles — plus TypeScript's and React's usual checks. Prettier owns formatting.
 */

const processEnv = {
  object: "process",
  property: "env",
  message:
    "Read settings from `config` (server/config.server.ts): the environment is validated once there.",
};

export default defineConfig(
  {
    ignores: [
      "build/**",
      "build-*/**",
      ".react-router/**",
      "data/**",
      "drizzle/**",
      "test-results/**",
      "playwright-report/**",
      "bench/results/**",
      "public/**",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/consistent-type-imports": [
        "error",
        // `typeof import("…")` names a module loaded lazily; an import statement would load it.
        { fixStyle: "inline-type-imports", disallowTypeAnnotations: false },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "server.ts"],
    plugins: { "import-x": importX },
    settings: {
      // Without these, import-x follows only .js files and would see no cycles at all.
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./server",
              from: ["./app/routes", "./app/components", "./app/root.tsx"],
              message: "Server modules never import UI: move what both need to app/lib.",
            },
            {
              target: ["./app/components", "./app/lib"],
              from: "./server",
              message:
                "Components and app/lib run in the browser too: only route modules (loaders and actions) call the server.",
            },
            {
              target: "./app/lib",
              from: ["./app/components", "./app/routes"],
              message:
                "app/lib is plain code for both sides: it does not depend on components or routes.",
            },
            {
              target: "./app/components",
              from: "./app/routes",
              message: "Routes compose components, not the other way round.",
            },
          ],
        },
      ],
      "no-restricted-properties": ["error", processEnv],
    },
  },
  // One zod flavour per side (decision 0027): what reaches the browser (app/) uses `zod/mini`,
  // whose functions the bundler keeps only when used; the server uses `zod`. Both read the same
  // schemas (app/lib) and the same core (`zod/v4/core`: types, `safeParse`).
  {
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["zod", "zod/v4", "zod/v4/classic", "zod/v3"].map((name) => ({
            name,
            message: "Code in app/ reaches the browser: use `zod/mini` (decision 0027).",
          })),
        },
      ],
    },
  },
  {
    files: ["server/**/*.ts", "server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["zod/mini", "zod/v4/mini", "zod/v4-mini"].map((name) => ({
            name,
            message: "The server uses `zod`; `zod/mini` is for code in app/ (decision 0027).",
          })),
        },
      ],
    },
  },
  {
    files: ["server/config.server.ts"],
    rules: { "no-restricted-properties": "off" },
  },
);
