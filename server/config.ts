// Environment -> validated configuration. Fails at boot naming the bad variable. Each variable is defined once
// below, in the documented order: the Config type, docs/operating.md's table and `dispatch-server start --help`
// derive from it.
import Joi from "joi";
import { looksLikeApiKey } from "./api-key-format.js";
import { rfc3339 } from "./services/shared/clock.js";
import {
  flag,
  group,
  list,
  number,
  optionalPort,
  optionalText,
  schemaOf,
  text,
  type SettingsOf,
} from "./config-variables.js";

const int = Joi.number().integer();
const hostName = Joi.alternatives().try(Joi.string().ip({ cidr: "forbidden" }), Joi.string().hostname());

/** A dispatch_test_ key the server could have issued (format and checksum), so a typo fails at start. */
const testKey = Joi.string()
  .custom((value: string, helpers) =>
    value.startsWith("dispatch_test_") && looksLikeApiKey(value) ? value : helpers.error("any.invalid"),
  )
  .messages({
    "any.invalid":
      "{{#label}} must be a dispatch_test_ key in the format the server issues (dispatch_test_ + 32 base62 characters + a 6-character checksum)",
  });

const sandboxMode = flag("DISPATCH_SANDBOX", false, {
  meaning:
    "sandbox mode for integrators' CI (see Test your integration in CI): `pglite://memory` unless `DATABASE_URL` is set, `SANDBOX_STEP_MS` 500, a ready test key, test-key callbacks to loopback",
});
/** Sandbox mode's default instead of the variable's own. */
const inSandbox = (value: string | number) => [sandboxMode.name, { is: true, then: Joi.any().default(value) }] as const;

const definition = {
  host: text(
    "HOST",
    hostName.messages({ "alternatives.match": "{{#label}} must be an IP address or a host name" }).default("127.0.0.1"),
    { meaning: "where to listen" },
  ),
  port: number("PORT", Joi.number().port().default(3000), {}),
  databaseUrl: text(
    "DATABASE_URL",
    Joi.string()
      .pattern(/^(pglite:\/\/|postgres(ql)?:\/\/)/, "pglite:// or postgres://")
      .default("pglite://./.data")
      .when(...inSandbox("pglite://memory")),
    { meaning: "`pglite://memory` for in-memory, `postgres://user@host:5432/db` for real Postgres" },
  ),
  redisUrl: optionalText("REDIS_URL", Joi.string().uri({ scheme: ["redis", "rediss"] }), {
    meaning:
      "share rate limits across instances (`redis://127.0.0.1:6379`); an unreachable or unanswering Redis (see `REDIS_COMMAND_TIMEOUT_MS`) falls back to per-instance limits",
  }),
  adminToken: optionalText("DISPATCH_ADMIN_TOKEN", Joi.string().min(16), {
    meaning: "bearer token of the admin area (`/api/admin/v1/...`, ≥16 characters); unset = admin area answers 503",
  }),
  dispatchDisabled: flag("DISPATCH_DISABLED", false, { meaning: "`true` makes quote/order answer 503" }),
  seedDemo: flag("DISPATCH_SEED_DEMO", true, {
    meaning:
      "seed the demo contractor pool into an empty database (every trade in CA, TX, FL, NY, IL, PA, OH, GA; none in AK)",
  }),
  publicBaseUrl: optionalText("PUBLIC_BASE_URL", Joi.string().uri({ scheme: ["http", "https"] }), {
    shown: "request origin",
    meaning: "base of absolute URLs the server hands out (status URLs, agent card)",
  }),
  mcpAllowedOrigins: list(
    "MCP_ALLOWED_ORIGINS",
    Joi.string().pattern(
      /^\s*https?:\/\/[^/,\s]+\s*(,\s*https?:\/\/[^/,\s]+\s*)*$/,
      "comma-separated origins such as https://app.example",
    ),
    {
      shown: "`PUBLIC_BASE_URL`'s origin (else the request's own)",
      meaning:
        "comma-separated origins (`https://app.example,https://b.example`) allowed to call `/api/mcp`; a request with any other `Origin` is a 403 problem, one without `Origin` passes",
    },
    null,
  ),
  logLevel: text(
    "LOG_LEVEL",
    Joi.string().valid("fatal", "error", "warn", "info", "debug", "trace", "silent").default("info"),
    { meaning: "pino level (`silent` in tests)" },
  ),
  provisioningContact: text("PROVISIONING_CONTACT", Joi.string().default("provisioning@dispatch.example"), {
    meaning: "contacts named in 402 and 202 bodies",
  }),
  escalationContact: text("ESCALATION_CONTACT", Joi.string().default("dispatch-escalations@dispatch.example"), {}),
  oauthTokenTtlSeconds: number("OAUTH_TOKEN_TTL_SECONDS", int.min(60).max(86_400).default(3600), {
    meaning: "lifetime of self-serve access tokens",
  }),
  webhookAllowPrivate: flag("WEBHOOK_ALLOW_PRIVATE", false, {
    meaning:
      "let every order call back to private and loopback addresses (local development and tests; sandbox mode already lets test-key orders call back to loopback)",
  }),
  webhook: group({
    pollMs: number("WEBHOOK_POLL_MS", int.min(10).default(1000), {
      meaning:
        "webhook worker: outbox poll interval, first retry delay (doubles each attempt), attempts before a message is marked dead, per-delivery timeout",
    }),
    backoffMs: number("WEBHOOK_BACKOFF_MS", int.min(1).default(10_000), {}),
    maxAttempts: number("WEBHOOK_MAX_ATTEMPTS", int.min(1).max(50).default(12), {}),
    timeoutMs: number("WEBHOOK_TIMEOUT_MS", int.min(100).default(10_000), {}),
  }),
  probeAllowPrivate: flag("PROBE_ALLOW_PRIVATE", false, {
    meaning:
      "let the readiness probe fetch loopback storefronts (tests only; private, link-local and metadata ranges stay refused)",
  }),
  sandboxStepMs: number(
    "SANDBOX_STEP_MS",
    int
      .min(0)
      .max(86_400_000)
      .default(5000)
      .when(...inSandbox(500)),
    {
      meaning:
        "sandbox: orders made with a `dispatch_test_` key take one lifecycle step this often; `0` = none on the wall clock: only `POST …/sandbox/orders/{id}/advance` moves them, or an advance of the account's test clock (each step 1 ms of its time after the last)",
    },
  ),
  dispatcherIntervalMs: number("DISPATCHER_INTERVAL_MS", int.min(1000).max(3_600_000).default(30_000), {
    meaning:
      "the dispatcher assigns orders accepted without a contractor (202) once one can take them: at once after a contractor is added or updated or an order ends, and otherwise every this often",
  }),
  offerDeadlineMinutes: group({
    emergency: number("OFFER_DEADLINE_EMERGENCY_MINUTES", int.min(1).max(10_080).default(5), {
      meaning:
        "how long a contractor has to accept or decline an offer, by the job's urgency (emergency, urgent, routine, scheduled); past it the job is offered to the next contractor",
    }),
    urgent: number("OFFER_DEADLINE_URGENT_MINUTES", int.min(1).max(10_080).default(15), {}),
    routine: number("OFFER_DEADLINE_ROUTINE_MINUTES", int.min(1).max(10_080).default(60), {}),
    scheduled: number("OFFER_DEADLINE_SCHEDULED_MINUTES", int.min(1).max(10_080).default(240), {}),
  }),
  sandbox: sandboxMode,
  sandboxKey: optionalText("DISPATCH_SANDBOX_KEY", testKey, {
    shown: "generated, printed once",
    meaning: "sandbox mode's test key (`dispatch_test_…` as the server issues them), usable without an admin call",
  }),
  sandboxAccount: text(
    "DISPATCH_SANDBOX_ACCOUNT",
    Joi.string()
      .max(100)
      .pattern(/^[a-z0-9][a-z0-9._-]*$/, "account name")
      .default("sandbox"),
    { meaning: "the sandbox key's account" },
  ),
  fixturesFile: optionalText("DISPATCH_FIXTURES", Joi.string(), {
    meaning:
      "Sandbox mode only: YAML or JSON file (at most 1 MiB) of contractors and test keys loaded at start, all or nothing (schema: `SandboxFixtures` in openapi.yaml)",
  }),
  eventStreams: group({
    perKey: number("EVENT_STREAMS_PER_KEY", int.min(1).max(1000).default(10), {
      meaning:
        "SSE event streams: concurrent streams one key may hold on an instance (one more is a 429 with `Retry-After`), and how long a stream lives before the server ends it (the client resumes with `Last-Event-ID`)",
    }),
    maxSeconds: number("EVENT_STREAM_MAX_SECONDS", int.min(1).max(86_400).default(3600), {}),
  }),
  rateLimit: group({
    points: number("RATE_LIMIT_POINTS", int.min(1).default(100), {
      meaning: "per-key window and burst allowance per 60 s (raise only for load tests)",
    }),
    burst: number("RATE_LIMIT_BURST", int.min(0).default(100), {}),
  }),
  credentialFailures: group({
    perCredential: number("AUTH_FAILURES_PER_CREDENTIAL", int.min(1).max(1000).default(20), {
      meaning:
        "failed-credential budgets per 5 min: per (client address, credential) and per client address (see Security limits); `RATE_LIMIT_POINTS` does not scale them",
    }),
    perAddress: number("AUTH_FAILURES_PER_ADDRESS", int.min(1).max(100_000).default(200), {}),
  }),
  redisCommandTimeoutMs: number("REDIS_COMMAND_TIMEOUT_MS", int.min(50).max(60_000).default(500), {
    meaning:
      "a Redis command unanswered this long fails over to the per-instance limits, and the silent connection is dropped and reconnected",
  }),
  databaseStatementTimeoutMs: number("DATABASE_STATEMENT_TIMEOUT_MS", int.min(0).max(3_600_000).default(5000), {
    meaning:
      "Postgres `statement_timeout` of every pooled connection (lock waits included) and the wait for a pooled connection; past it the request is a 503 `database_timeout` with `Retry-After`; `0` = none; migrations run without it; PGlite ignores it",
  }),
  maxRequestsInFlight: number("MAX_REQUESTS_IN_FLIGHT", int.min(1).max(100_000).default(256), {
    meaning:
      "`/api/` requests handled at once per instance; past it a new one is answered 503 `overloaded` with `Retry-After: 1` at once (health, readiness and metrics are exempt)",
  }),
  evalsCacheMs: number("EVALS_CACHE_MS", int.min(0).max(3_600_000).default(30_000), {
    meaning: "how long an evals document is served before it is computed again (`0` = every call)",
  }),
  a2aTasks: group({
    callerBytes: number("A2A_TASK_BYTES_PER_CALLER", int.min(65_536).max(1_073_741_824).default(2_097_152), {
      shown: "`2097152` (2 MiB)",
      meaning:
        "A2A task memory, in bytes of task JSON, per authenticated caller and in all; past either the oldest finished tasks are forgotten first",
    }),
    totalBytes: number("A2A_TASK_BYTES", int.min(65_536).max(17_179_869_184).default(67_108_864), {
      shown: "`67108864` (64 MiB)",
    }),
  }),
  shutdownGraceMs: number("SHUTDOWN_GRACE_MS", int.min(0).max(600_000).default(25_000), {
    meaning: "on SIGTERM/SIGINT, how long requests in flight may take before their connections are cut (see Operating)",
  }),
  metricsListener: group(
    {
      port: optionalPort("METRICS_PORT", {
        meaning: "also serve the metrics at `GET /metrics` without a token on this port and interface (see Operating)",
      }),
      host: text("METRICS_HOST", hostName.default("127.0.0.1"), {}),
    },
    ({ port, host }) => (port === null ? null : { host, port }),
  ),
  requestTimeoutMs: number("HTTP_REQUEST_TIMEOUT_MS", int.min(1000).max(300_000).default(15_000), {
    meaning:
      "time a client has to send a whole request (headers within two thirds of it); stalled sockets are cut (see Security limits)",
  }),
  trustedProxies: list<string[]>(
    "TRUSTED_PROXIES",
    Joi.string().pattern(/^[0-9A-Fa-f:./]+(,\s*[0-9A-Fa-f:./]+)*$/, "comma-separated addresses or CIDR ranges"),
    { meaning: "comma-separated addresses or CIDR ranges of the proxies whose `X-Forwarded-For` is believed" },
    [],
  ),
  audit: group({
    origin: text(
      "AUDIT_LOG_ORIGIN",
      Joi.string()
        .pattern(/^[a-z0-9.-]+(\/[A-Za-z0-9._-]+)*$/)
        .default("dispatch.example/audit"),
      {
        meaning:
          "audit log: the checkpoints' origin line, the signed-note private key, and the most ms between sequencing batches (see Trust)",
      },
    ),
    signingKey: optionalText("AUDIT_SIGNING_KEY", Joi.string(), { shown: "generated and kept in the database" }),
    batchMs: number("AUDIT_BATCH_MS", int.min(10).max(1000).default(1000), {}),
  }),
  testNow: optionalText("DISPATCH_TEST_NOW", Joi.string().pattern(rfc3339, "RFC 3339 instant"), {
    meaning:
      "tests only: business time (windows, deadlines, working hours) runs as if the wall clock had stood at this instant (`2026-11-28T18:07:00-06:00`) when the run began",
  }),
  buildHash: optionalText("BUILD_HASH", Joi.string(), {
    shown: "`git rev-parse --short=12 HEAD` (recorded at build)",
    meaning: "the build named in `/api/capabilities`",
  }),
  // Not a setting of its own: it only decides whether PUBLIC_BASE_URL is required.
  nodeEnv: optionalText("NODE_ENV", Joi.string(), { meaning: "`production` requires `PUBLIC_BASE_URL`" }),
};

export type Config = Omit<SettingsOf<typeof definition>, "nodeEnv">;

const settings = group(definition);
/** Every configuration variable, in the documented order. */
export const variables = settings.variables;
export const schema = schemaOf(variables);

const invalid = (variable: string, message: string) => new Error(`Invalid configuration: ${variable}: ${message}`);

/** The validated config; the first failure (a variable's own, then the rules across variables) names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.validate(env, { abortEarly: true, convert: true });
  if (result.error) throw invalid(result.error.details[0]?.path.join(".") ?? "environment", result.error.message);
  const { nodeEnv, ...config } = settings.read(result.value);
  // Behind a proxy the Host header is the only other source of absolute URLs, and it is the caller's to forge.
  if (nodeEnv === "production" && !config.publicBaseUrl)
    throw invalid(definition.publicBaseUrl.name, `required when ${definition.nodeEnv.name}=production.`);
  // Outside sandbox mode nothing would store the key; saying so beats a key that silently does not work.
  if (config.sandboxKey && !config.sandbox) throw invalid(definition.sandboxKey.name, `needs ${sandboxMode.name}=1.`);
  return config;
}
