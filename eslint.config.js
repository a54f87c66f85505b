// Lint config: typescript-eslint strict + stylistic (type-checked); Prettier owns formatting (eslint-config-prettier last).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

/** `files` may not import a module whose path (as written) matches `regex`. */
const layer = (files, message, regex) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [{ regex, message }] }] },
});

export default tseslint.config(
  {
    ignores: [
      "**/generated/**",
      "node_modules/**",
      "**/dist/**",
      ".data/**",
      "test/tmp/**",
      "test/fixtures/storefronts/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "scripts/*.js", "cli/bin/*.cjs", "test/helpers/*.cjs"] },
      },
    },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "max-lines-per-function": ["error", { max: 40, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 300, skipBlankLines: true, skipComments: true }],
      // Template literals with numbers are everywhere in messages and URLs; booleans/any/nullish stay forbidden.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // `||` on strings deliberately treats "" (an unset env variable) like undefined.
      "@typescript-eslint/prefer-nullish-coalescing": ["error", { ignorePrimitives: { string: true } }],
      // `_`-prefixed names are the deliberate "omit this key" in destructuring.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // noUncheckedIndexedAccess is off, so `!` marks lookups the code has just established (Map.get after has, find on a seeded list).
      "@typescript-eslint/no-non-null-assertion": "off",
      // Contract-typed values still arrive from the wire (JSON, env, DB); the defensive `?.`/`??` on them are deliberate.
      "@typescript-eslint/no-unnecessary-condition": "off",
    },
  },
  {
    // Tests and benches read untyped rows and payloads (the server's rows are typed in server/db/tables/).
    // `no-explicit-any` stays on, so new code cannot introduce `any` of its own.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
    },
  },
  // The server's layers: a lower layer never imports a higher one (import paths are matched as written).
  layer(
    ["server/db/**/*.ts"],
    "server/db is below the services, plugins and routes",
    "(^|/)(services|plugins|routes)/",
  ),
  layer(
    ["server/plugins/**/*.ts"],
    "plugins are below the routes; shared request helpers live in plugins/",
    "(^|/)routes/",
  ),
  layer(
    ["server/services/**/*.ts"],
    "services know nothing of HTTP: no Hapi, plugins or routes (errors are mapped in plugins/errors.ts)",
    "^@hapi/|^hapi-|(^|/)(plugins|routes)/",
  ),
  {
    // A route is its operation (routes/operation-route.ts): method, path, tags, auth and the scopes come from the
    // generated operation table by operationId, never restated in a route file.
    files: ["server/routes/*/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name=/^(method|path)$/]",
          message: "Route files name their operationId (operationRoute); method and path are the contract's.",
        },
        {
          selector: "Property[key.name='options'] > ObjectExpression > Property[key.name=/^(id|tags|auth|validate)$/]",
          message:
            "id, tags, auth and validators come from the operation (operationRoute's auth/validate override, with why).",
        },
      ],
    },
  },
  {
    // Test files: one describe() wraps a whole suite, so the function limit applies to the it() bodies only loosely.
    files: ["test/**/*.ts", "bench/**/*.ts"],
    rules: {
      "max-lines-per-function": "off",
      "max-lines": "off",
      // Mocha's it()/describe() return values (promises from async callbacks) are handled by the runner.
      "@typescript-eslint/no-floating-promises": "off",
      // Test doubles (fake fetch, no-op drop()) are async or empty by design.
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/no-empty-function": "off",
    },
  },
  {
    // A migration is one declarative schema step; splitting its DDL would hide the schema, not clarify it.
    files: ["server/db/migrations/**/*.ts"],
    rules: { "max-lines-per-function": "off" },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, "@typescript-eslint/no-require-imports": "off" },
    languageOptions: {
      globals: {
        process: "readonly",
        URL: "readonly",
        console: "readonly",
        require: "readonly",
        module: "writable",
        __dirname: "readonly",
      },
    },
  },
  prettier,
);
