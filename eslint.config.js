// Lint config: typescript-eslint strict + stylistic (type-checked); Prettier owns formatting (eslint-config-prettier last).
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

// Every loop in the server runs on server/background-job.ts (backoff, stop, unref); a timer elsewhere is a loop that
// skips them. These files hold the helper and the one-shot waits that are not loops (each with why).
const timerFiles = [
  "server/background-job.ts", // the helper itself
  "server/drain.ts", // the unref'd deadline on a signalled stop
  "server/services/webhooks/worker.ts", // stop()'s short wait for deliveries in flight
  "server/services/audit/log.ts", // flush()'s wait for another instance's batch, bounded, inside one call
  "server/services/health/readiness.ts", // one readiness check's budget, cleared when the check answers
];
const timerMessage =
  "Run loops on startBackgroundJob (server/background-job.ts); a one-shot wait is listed in eslint.config.js.";
const timerImports = ["node:timers", "node:timers/promises", "timers", "timers/promises"].map((name) => ({
  name,
  importNames: ["setTimeout", "setInterval"],
  message: timerMessage,
}));

/** `files` may not import a module whose path (as written) matches `regex` (nor a timer, see timerImports). */
const layer = (files, message, regex) => ({
  files,
  rules: { "no-restricted-imports": ["error", { paths: timerImports, patterns: [{ regex, message }] }] },
});

/**
 * no-restricted-syntax bans under `dir`, each over the files its `applies(path)` accepts: one config block per set
 * of bans that apply together, as a later block's no-restricted-syntax would replace (not add to) an earlier one's.
 */
function syntaxBans(dir, bans) {
  const groups = new Map();
  for (const file of readdirSync(new URL(`${dir}/`, import.meta.url), { recursive: true, encoding: "utf8" })) {
    const path = `${dir}/${file}`;
    if (!path.endsWith(".ts") || path.includes("/generated/")) continue;
    const applying = bans.filter((ban) => ban.applies(path));
    const key = applying.map((ban) => bans.indexOf(ban)).join();
    if (applying.length) groups.set(key, { files: [...(groups.get(key)?.files ?? []), path], applying });
  }
  return [...groups.values()].map(({ files, applying }) => ({
    files,
    rules: { "no-restricted-syntax": ["error", ...applying.map(({ selector, message }) => ({ selector, message }))] },
  }));
}

const orders = "server/services/dispatch/orders/";
const lifecycleKeys = "/^(pending_dispatch|dispatched)$/";
const namedFunctions = [
  "FunctionDeclaration",
  "FunctionExpression",
  "TSDeclareFunction",
  "TSEmptyBodyFunctionExpression",
  "TSMethodSignature",
  "TSFunctionType",
  "TSConstructorType",
  "TSCallSignatureDeclaration",
  "TSConstructSignatureDeclaration",
].join(", ");

// The order domain's shape: one order service writes orders and their events, one table says where an order may
// move, and the domain's parameters are named for what they hold. A second service or a copied state machine would
// let the lifecycle, customer cancelling and the sandbox drift apart again.
const orderDomain = syntaxBans("server/services", [
  {
    applies: (path) => path !== `${orders}index.ts`,
    selector: "FunctionDeclaration[id.name=/^create\\w*(Order|Lifecycle|Sandbox)\\w*Service$/]",
    message: "The order domain has one service factory, createOrderService in dispatch/orders/index.ts.",
  },
  {
    // The feed sequencer stamps `seq` on events after commit: it orders the feed, it does not move orders.
    applies: (path) => !path.startsWith(orders) && path !== "server/services/events/sequencer.ts",
    selector: [
      "CallExpression[callee.property.name=/^(insert|update|del|delete)$/] > MemberExpression.callee CallExpression[arguments.0.value=/^(orders|order_events)$/]",
      "Literal[value=/\\b(insert\\s+into|update|delete\\s+from)\\s+(orders|order_events)\\b/i]",
      "TemplateElement[value.raw=/\\b(insert\\s+into|update|delete\\s+from)\\s+(orders|order_events)\\b/i]",
    ].join(", "),
    message: "orders and order_events are written only by the order service (services/dispatch/orders/).",
  },
  {
    applies: (path) => path !== `${orders}state.ts`,
    selector: [
      `Property[key.name=${lifecycleKeys}] > ArrayExpression.value`,
      `Property[key.name=${lifecycleKeys}] > :matches(TSAsExpression, TSSatisfiesExpression).value > ArrayExpression`,
      `TSPropertySignature[key.name=${lifecycleKeys}] > TSTypeAnnotation > TSTupleType`,
    ].join(", "),
    message: "One transition table (services/dispatch/orders/state.ts) maps a status to the statuses after it.",
  },
  {
    applies: (path) => path.startsWith("server/services/dispatch/"),
    selector: [
      `:matches(${namedFunctions}) > Identifier.params[name=/^.$/]`,
      `:matches(${namedFunctions}) > AssignmentPattern.params > Identifier.left[name=/^.$/]`,
      `:matches(${namedFunctions}) > RestElement.params > Identifier.argument[name=/^.$/]`,
    ].join(", "),
    message: "Name each parameter for what it holds (one-letter names only in arrow callbacks: (x) => …).",
  },
]);

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
  {
    files: ["server/**/*.ts"],
    ignores: timerFiles,
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "setTimeout", message: timerMessage },
        { name: "setInterval", message: timerMessage },
      ],
      "no-restricted-properties": [
        "error",
        { property: "setTimeout", message: timerMessage },
        { property: "setInterval", message: timerMessage },
      ],
    },
  },
  { files: ["server/**/*.ts"], rules: { "no-restricted-imports": ["error", { paths: timerImports }] } },
  ...orderDomain,
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
