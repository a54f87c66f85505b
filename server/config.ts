// Environment -> validated configuration. Fails at boot naming the bad variable.
import Joi from "joi";
import { looksLikeApiKey } from "./services/access/keys.js";

export interface Config {
  host: string;
  port: number;
  publicBaseUrl: string | null;
  databaseUrl: string;
  redisUrl: string | null;
  dispatchDisabled: boolean;
  seedDemo: boolean;
  adminToken: string | null;
  logLevel: string;
  webhookAllowPrivate: boolean;
  probeAllowPrivate: boolean;
  provisioningContact: string;
  escalationContact: string;
  oauthTokenTtlSeconds: number;
  buildHash: string | null;
  /** Origins allowed to call /api/mcp from a browser; null = the public base URL's origin. */
  mcpAllowedOrigins: string[] | null;
  /** Primary window and burst allowance per 60 s (defaults 100 + 100); raise only for load tests. */
  rateLimit: { points: number; burst: number };
  /** Failed-credential budgets per 5 min: per (address, credential) and per address; apart from rateLimit. */
  credentialFailures: { perCredential: number; perAddress: number };
  /** A Redis command (and a socket silent after one) gives up after this long; limits then fall back per instance. */
  redisCommandTimeoutMs: number;
  /** Postgres statement_timeout per connection, and the pool's wait for a connection (0: no limit). */
  databaseStatementTimeoutMs: number;
  /** Requests being handled at once on /api/ routes beyond which new ones get a 503 with Retry-After. */
  maxRequestsInFlight: number;
  /** Time a client has to send a whole request (headers within two thirds of it); stalled sockets are cut. */
  requestTimeoutMs: number;
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDR ranges); everyone else's is ignored. */
  trustedProxies: string[];
  /** Webhook delivery worker: poll interval, backoff base, attempts before giving up, per-attempt timeout. */
  webhook: { pollMs: number; backoffMs: number; maxAttempts: number; timeoutMs: number };
  /** Audit log: checkpoint origin line, signed-note private key (null = generated and kept in the database), batch interval. */
  audit: { origin: string; signingKey: string | null; batchMs: number };
  /** SSE streams: concurrent streams one key may hold (per instance), and a stream's lifetime. */
  eventStreams: { perKey: number; maxSeconds: number };
  /** Sandbox: ms between the automatic steps of a test-key order; 0 = only advanceSandboxOrder moves them. */
  sandboxStepMs: number;
  /** How long an evals document is served before it is computed again (0: every call). */
  evalsCacheMs: number;
  /** A2A task memory: bytes of task JSON kept per authenticated caller and in all (oldest finished go first). */
  a2aTasks: { callerBytes: number; totalBytes: number };
  /** Sandbox mode: in-memory database unless DATABASE_URL says otherwise, fast sandbox clock, a ready test key. */
  sandbox: boolean;
  /** The sandbox's test key (null: one is generated and printed at start). */
  sandboxKey: string | null;
  /** The account the sandbox key belongs to. */
  sandboxAccount: string;
  /** Contractors and keys (YAML or JSON) loaded at start; null = none. */
  fixturesFile: string | null;
  /** How long a stop (SIGTERM/SIGINT) waits for requests in flight before it cuts their connections. */
  shutdownGraceMs: number;
  /** A second listener serving only GET /metrics without auth (null: none; the main port's needs the admin token). */
  metricsListener: { host: string; port: number } | null;
}

/** The environment as validated: types converted, defaults filled in (`?`: no default, may be unset or ""). */
interface Env {
  HOST: string;
  PORT: number;
  PUBLIC_BASE_URL?: string;
  DATABASE_URL: string;
  REDIS_URL?: string;
  DISPATCH_DISABLED: boolean;
  DISPATCH_SEED_DEMO: boolean;
  DISPATCH_ADMIN_TOKEN?: string;
  LOG_LEVEL: string;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  PROBE_ALLOW_PRIVATE: boolean;
  PROVISIONING_CONTACT: string;
  ESCALATION_CONTACT: string;
  OAUTH_TOKEN_TTL_SECONDS: number;
  BUILD_HASH?: string;
  MCP_ALLOWED_ORIGINS?: string;
  NODE_ENV?: string;
  HTTP_REQUEST_TIMEOUT_MS: number;
  RATE_LIMIT_POINTS: number;
  RATE_LIMIT_BURST: number;
  AUTH_FAILURES_PER_CREDENTIAL: number;
  AUTH_FAILURES_PER_ADDRESS: number;
  REDIS_COMMAND_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  MAX_REQUESTS_IN_FLIGHT: number;
  TRUSTED_PROXIES?: string;
  WEBHOOK_POLL_MS: number;
  WEBHOOK_BACKOFF_MS: number;
  WEBHOOK_MAX_ATTEMPTS: number;
  WEBHOOK_TIMEOUT_MS: number;
  AUDIT_LOG_ORIGIN: string;
  AUDIT_SIGNING_KEY?: string;
  AUDIT_BATCH_MS: number;
  EVENT_STREAMS_PER_KEY: number;
  EVENT_STREAM_MAX_SECONDS: number;
  SANDBOX_STEP_MS: number;
  EVALS_CACHE_MS: number;
  A2A_TASK_BYTES_PER_CALLER: number;
  A2A_TASK_BYTES: number;
  DISPATCH_SANDBOX: boolean;
  DISPATCH_SANDBOX_KEY?: string;
  DISPATCH_SANDBOX_ACCOUNT: string;
  DISPATCH_FIXTURES?: string;
  SHUTDOWN_GRACE_MS: number;
  METRICS_PORT?: number | "";
  METRICS_HOST: string;
}

const bool = Joi.boolean().truthy("1", "yes").falsy("0", "no", "");
const inSandbox = (then: Joi.Schema, otherwise: Joi.Schema) => ({ is: true, then, otherwise });

/** A dispatch_test_ key the server could have issued (format and checksum), so a typo fails at start. */
const testKey = Joi.string()
  .custom((value: string, helpers) =>
    value.startsWith("dispatch_test_") && looksLikeApiKey(value) ? value : helpers.error("any.invalid"),
  )
  .messages({
    "any.invalid":
      "{{#label}} must be a dispatch_test_ key in the format the server issues (dispatch_test_ + 32 base62 characters + a 6-character checksum)",
  });

/** One schema per variable of Env, no more and no fewer (checked by `satisfies`). */
const variables = {
  HOST: Joi.alternatives()
    .try(Joi.string().ip({ cidr: "forbidden" }), Joi.string().hostname())
    .messages({ "alternatives.match": "{{#label}} must be an IP address or a host name" })
    .default("127.0.0.1"),
  PORT: Joi.number().port().default(3000),
  PUBLIC_BASE_URL: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .allow(""),
  DATABASE_URL: Joi.string()
    .pattern(/^(pglite:\/\/|postgres(ql)?:\/\/)/, "pglite:// or postgres://")
    .when("DISPATCH_SANDBOX", inSandbox(Joi.any().default("pglite://memory"), Joi.any().default("pglite://./.data"))),
  REDIS_URL: Joi.string()
    .uri({ scheme: ["redis", "rediss"] })
    .allow(""),
  DISPATCH_DISABLED: bool.default(false),
  DISPATCH_SEED_DEMO: bool.default(true),
  DISPATCH_ADMIN_TOKEN: Joi.string().min(16).allow(""),
  LOG_LEVEL: Joi.string().valid("fatal", "error", "warn", "info", "debug", "trace", "silent").default("info"),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  PROBE_ALLOW_PRIVATE: bool.default(false),
  PROVISIONING_CONTACT: Joi.string().default("provisioning@dispatch.example"),
  ESCALATION_CONTACT: Joi.string().default("dispatch-escalations@dispatch.example"),
  OAUTH_TOKEN_TTL_SECONDS: Joi.number().integer().min(60).max(86_400).default(3600),
  BUILD_HASH: Joi.string().allow(""),
  MCP_ALLOWED_ORIGINS: Joi.string()
    .pattern(
      /^\s*https?:\/\/[^/,\s]+\s*(,\s*https?:\/\/[^/,\s]+\s*)*$/,
      "comma-separated origins such as https://app.example",
    )
    .allow(""),
  NODE_ENV: Joi.string().allow(""),
  HTTP_REQUEST_TIMEOUT_MS: Joi.number().integer().min(1000).max(300_000).default(15_000),
  RATE_LIMIT_POINTS: Joi.number().integer().min(1).default(100),
  RATE_LIMIT_BURST: Joi.number().integer().min(0).default(100),
  AUTH_FAILURES_PER_CREDENTIAL: Joi.number()
    .integer()
    .min(1)
    .max(1000)
    .default(20)
    .description("Failed attempts with one credential from one address per 5 min; RATE_LIMIT_POINTS does not scale it"),
  AUTH_FAILURES_PER_ADDRESS: Joi.number()
    .integer()
    .min(1)
    .max(100_000)
    .default(200)
    .description("Failed credentials of any kind from one address per 5 min; RATE_LIMIT_POINTS does not scale it"),
  REDIS_COMMAND_TIMEOUT_MS: Joi.number()
    .integer()
    .min(50)
    .max(60_000)
    .default(500)
    .description("A Redis command unanswered this long fails over to the per-instance limits"),
  DATABASE_STATEMENT_TIMEOUT_MS: Joi.number()
    .integer()
    .min(0)
    .max(3_600_000)
    .default(5000)
    .description("Postgres statement_timeout per connection and the wait for a pooled connection; 0 = none"),
  MAX_REQUESTS_IN_FLIGHT: Joi.number()
    .integer()
    .min(1)
    .max(100_000)
    .default(256)
    .description("API requests handled at once per instance; past it new ones get 503 overloaded with Retry-After"),
  TRUSTED_PROXIES: Joi.string()
    .pattern(/^[0-9A-Fa-f:./]+(,\s*[0-9A-Fa-f:./]+)*$/, "comma-separated addresses or CIDR ranges")
    .allow(""),
  WEBHOOK_POLL_MS: Joi.number().integer().min(10).default(1000),
  WEBHOOK_BACKOFF_MS: Joi.number().integer().min(1).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: Joi.number().integer().min(1).max(50).default(12),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  AUDIT_LOG_ORIGIN: Joi.string()
    .pattern(/^[a-z0-9.-]+(\/[A-Za-z0-9._-]+)*$/)
    .default("dispatch.example/audit"),
  AUDIT_SIGNING_KEY: Joi.string().allow(""),
  AUDIT_BATCH_MS: Joi.number().integer().min(10).max(1000).default(1000),
  EVENT_STREAMS_PER_KEY: Joi.number().integer().min(1).max(1000).default(10),
  EVENT_STREAM_MAX_SECONDS: Joi.number().integer().min(1).max(86_400).default(3600),
  SANDBOX_STEP_MS: Joi.number()
    .integer()
    .min(0)
    .max(86_400_000)
    .when("DISPATCH_SANDBOX", inSandbox(Joi.any().default(500), Joi.any().default(5000))),
  EVALS_CACHE_MS: Joi.number().integer().min(0).max(3_600_000).default(30_000),
  A2A_TASK_BYTES_PER_CALLER: Joi.number().integer().min(65_536).max(1_073_741_824).default(2_097_152),
  A2A_TASK_BYTES: Joi.number().integer().min(65_536).max(17_179_869_184).default(67_108_864),
  DISPATCH_SANDBOX: bool
    .default(false)
    .description(
      "Sandbox mode for integrators' CI: in-memory database unless DATABASE_URL is set, demo contractors, SANDBOX_STEP_MS 500, and a test key usable at once (DISPATCH_SANDBOX_KEY, or one generated and printed).",
    ),
  DISPATCH_SANDBOX_KEY: testKey
    .allow("")
    .description(
      "Sandbox mode's test key (dispatch_test_…, as the server issues them), usable at once without an admin call; default: one generated at start and printed on stderr.",
    ),
  DISPATCH_SANDBOX_ACCOUNT: Joi.string()
    .max(100)
    .pattern(/^[a-z0-9][a-z0-9._-]*$/, "account name")
    .default("sandbox")
    .description("The account of the sandbox key (all scopes)."),
  DISPATCH_FIXTURES: Joi.string()
    .allow("")
    .description(
      "Sandbox mode only: a YAML or JSON file (at most 1 MiB) of contractors and test keys to load at start, all or nothing (its schema is SandboxFixtures in openapi.yaml).",
    ),
  SHUTDOWN_GRACE_MS: Joi.number()
    .integer()
    .min(0)
    .max(600_000)
    .default(25_000)
    .description("On SIGTERM/SIGINT, how long requests in flight may take before their connections are cut"),
  METRICS_PORT: Joi.number()
    .port()
    .allow("")
    .description("Serves GET /metrics without auth on this port too (the main port's /metrics needs the admin token)"),
  METRICS_HOST: Joi.alternatives()
    .try(Joi.string().ip({ cidr: "forbidden" }), Joi.string().hostname())
    .default("127.0.0.1")
    .description("Interface of the METRICS_PORT listener; loopback unless the scraper runs elsewhere"),
} satisfies Record<keyof Env, Joi.Schema>;

export const schema = Joi.object<Env>(variables).unknown(true);

const listOf = (csv: string): string[] => csv.split(",").map((item) => item.trim());

/** Validates the environment against the schema; the first failure names its variable. */
function validatedEnv(env: NodeJS.ProcessEnv): Env {
  const result = schema.validate(env, { abortEarly: true, convert: true });
  if (result.error) {
    const variable = result.error.details[0]?.path.join(".") ?? "environment";
    throw new Error(`Invalid configuration: ${variable}: ${result.error.message}`);
  }
  const { value } = result;
  // Behind a proxy the Host header is the only other source of absolute URLs, and it is the caller's to forge.
  if (value.NODE_ENV === "production" && !value.PUBLIC_BASE_URL)
    throw new Error("Invalid configuration: PUBLIC_BASE_URL: required when NODE_ENV=production.");
  // Outside sandbox mode nothing would store the key; saying so beats a key that silently does not work.
  if (value.DISPATCH_SANDBOX_KEY && !value.DISPATCH_SANDBOX)
    throw new Error("Invalid configuration: DISPATCH_SANDBOX_KEY: needs DISPATCH_SANDBOX=1.");
  return value;
}

/** Sandbox mode's settings (validated values). */
const sandboxOf = (value: Env) => ({
  sandbox: value.DISPATCH_SANDBOX,
  sandboxKey: value.DISPATCH_SANDBOX_KEY || null,
  sandboxAccount: value.DISPATCH_SANDBOX_ACCOUNT,
  fixturesFile: value.DISPATCH_FIXTURES || null,
});

/** Stopping and watching the server: the drain's grace period and the optional metrics listener. */
function operationsOf(value: Env) {
  const port = value.METRICS_PORT;
  return {
    shutdownGraceMs: value.SHUTDOWN_GRACE_MS,
    metricsListener: port === "" || port === undefined ? null : { host: value.METRICS_HOST, port },
  };
}

/** Outbound webhook delivery: poll interval, backoff, attempts and per-attempt timeout. */
const webhookOf = (value: Env) => ({
  pollMs: value.WEBHOOK_POLL_MS,
  backoffMs: value.WEBHOOK_BACKOFF_MS,
  maxAttempts: value.WEBHOOK_MAX_ATTEMPTS,
  timeoutMs: value.WEBHOOK_TIMEOUT_MS,
});

/** Failed-credential budgets and the bounds that keep a slow dependency from holding requests. */
const dependenciesOf = (value: Env) => ({
  credentialFailures: {
    perCredential: value.AUTH_FAILURES_PER_CREDENTIAL,
    perAddress: value.AUTH_FAILURES_PER_ADDRESS,
  },
  redisCommandTimeoutMs: value.REDIS_COMMAND_TIMEOUT_MS,
  databaseStatementTimeoutMs: value.DATABASE_STATEMENT_TIMEOUT_MS,
  maxRequestsInFlight: value.MAX_REQUESTS_IN_FLIGHT,
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const value = validatedEnv(env);
  return {
    host: value.HOST,
    port: value.PORT,
    publicBaseUrl: value.PUBLIC_BASE_URL || null,
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL || null,
    dispatchDisabled: value.DISPATCH_DISABLED,
    seedDemo: value.DISPATCH_SEED_DEMO,
    adminToken: value.DISPATCH_ADMIN_TOKEN || null,
    logLevel: value.LOG_LEVEL,
    webhookAllowPrivate: value.WEBHOOK_ALLOW_PRIVATE,
    probeAllowPrivate: value.PROBE_ALLOW_PRIVATE,
    provisioningContact: value.PROVISIONING_CONTACT,
    escalationContact: value.ESCALATION_CONTACT,
    oauthTokenTtlSeconds: value.OAUTH_TOKEN_TTL_SECONDS,
    buildHash: value.BUILD_HASH || null,
    mcpAllowedOrigins: value.MCP_ALLOWED_ORIGINS ? listOf(value.MCP_ALLOWED_ORIGINS) : null,
    rateLimit: { points: value.RATE_LIMIT_POINTS, burst: value.RATE_LIMIT_BURST },
    ...dependenciesOf(value),
    requestTimeoutMs: value.HTTP_REQUEST_TIMEOUT_MS,
    trustedProxies: value.TRUSTED_PROXIES ? listOf(value.TRUSTED_PROXIES) : [],
    webhook: webhookOf(value),
    audit: {
      origin: value.AUDIT_LOG_ORIGIN,
      signingKey: value.AUDIT_SIGNING_KEY || null,
      batchMs: value.AUDIT_BATCH_MS,
    },
    eventStreams: { perKey: value.EVENT_STREAMS_PER_KEY, maxSeconds: value.EVENT_STREAM_MAX_SECONDS },
    sandboxStepMs: value.SANDBOX_STEP_MS,
    evalsCacheMs: value.EVALS_CACHE_MS,
    a2aTasks: { callerBytes: value.A2A_TASK_BYTES_PER_CALLER, totalBytes: value.A2A_TASK_BYTES },
    ...sandboxOf(value),
    ...operationsOf(value),
  };
}
