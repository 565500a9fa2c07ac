import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import prettierConfig from "eslint-config-prettier";

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
  // Layout is Prettier's (`prettier --check` in `npm run lint`): no stylistic rule may argue with it.
  prettierConfig,
);
