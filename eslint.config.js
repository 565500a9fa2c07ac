import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import prettierConfig from "eslint-config-prettier";
import { readdirSync } from "node:fs";

/**
 * api/knowledge's stages, lowest first: each folder imports only the folders before it, and the
 * routes and queries at its root import them all (words ← extract ← index ← crawl ← routes).
 */
const KNOWLEDGE_STAGES = ["words", "extract", "index", "crawl"];
/** The modules at api/knowledge's root: the routes' stage, above every folder. */
const KNOWLEDGE_ROOT = readdirSync(new URL("./api/knowledge", import.meta.url))
  .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
  .map((name) => name.replace(/\.ts$/, ""));

/**
 * One block a stage folder: an import of a later stage, or of the root's modules, is an error. Tests
 * are left out: a stage's test may follow its output further along (extract.test.ts chunks what it
 * extracts); nothing imports a test, so it closes no cycle.
 */
const knowledgeStageDirection = KNOWLEDGE_STAGES.map((stage, at) => {
  const later = KNOWLEDGE_STAGES.slice(at + 1);
  const message = `api/knowledge/${stage} imports only the stages before it: ${KNOWLEDGE_STAGES.join(" ← ")} ← routes.`;
  return {
    files: [`api/knowledge/${stage}/**`],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...(later.length ? [{ regex: `^(\\.\\./)+(knowledge/)?(${later.join("|")})/`, message }] : []),
            { regex: `^(\\.\\./)+(knowledge/)?(${KNOWLEDGE_ROOT.join("|")})$`, message },
          ],
        },
      ],
    },
  };
});

export default tseslint.config(
  {
    ignores: [
      "build/",
      "public/build/",
      "public/widget.js",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "api/db/migrations/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(api|server)(/|$)",
              message: "The console talks to the API only through app/server/api and contract/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Components and browser-side helpers take the contract's plain values (`@contract/values/*`):
    // a value import of `@contract` itself brings zod and every schema into each route's JavaScript.
    files: ["app/components/**", "app/lib/**"],
    ignores: ["**/*.schema.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@contract",
              allowTypeImports: true,
              message: "Import plain values from @contract/values/* here (types from @contract are fine).",
            },
          ],
          patterns: [
            {
              regex: "^(\\.\\./)+(api|server)(/|$)",
              message: "The console talks to the API only through app/server/api and contract/.",
            },
          ],
        },
      ],
    },
  },
  {
    // The browser's own `location` does not exist while the server renders: a page reads the
    // address through Remix's useLocation (window.location, said in full, where it is meant).
    files: ["app/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "location", message: "Use useLocation() (or window.location where the browser's is meant)." },
      ],
    },
  },
  {
    // Console actions read forms through readForm, which bounds the body and the field names first.
    files: ["app/**"],
    ignores: ["app/server/http/form-data.server.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='formData']",
          message:
            "Read posted forms with readForm (app/server/http/form-data.server.ts): it bounds the body and the field names.",
        },
      ],
    },
  },
  {
    files: ["api/**", "contract/**", "server.ts", "tests/**", "bench/**", "*.config.*", "*.js", "*.mjs"],
    rules: { "no-restricted-imports": "off" },
  },
  ...knowledgeStageDirection,
  // Layout is Prettier's (`prettier --check` in `npm run lint`): no stylistic rule may argue with it.
  prettierConfig,
);
