// Environment -> validated configuration. Fails at boot naming the bad variable.
import Joi from "joi";

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
  /** Primary window and burst allowance per 60 s (defaults 100 + 100); raise only for load tests. */
  rateLimit: { points: number; burst: number };
  /** Webhook delivery worker: poll interval, backoff base, attempts before giving up, per-attempt timeout. */
  webhook: { pollMs: number; backoffMs: number; maxAttempts: number; timeoutMs: number };
}

const bool = Joi.boolean().truthy("1", "yes").falsy("0", "no", "");

const schema = Joi.object({
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
    .default("pglite://./.data"),
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
  RATE_LIMIT_POINTS: Joi.number().integer().min(1).default(100),
  RATE_LIMIT_BURST: Joi.number().integer().min(0).default(100),
  WEBHOOK_POLL_MS: Joi.number().integer().min(10).default(1000),
  WEBHOOK_BACKOFF_MS: Joi.number().integer().min(1).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: Joi.number().integer().min(1).max(50).default(12),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
}).unknown(true);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const variable = error.details[0]?.path.join(".") ?? "environment";
    throw new Error(`Invalid configuration: ${variable}: ${error.message}`);
  }
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
    rateLimit: { points: value.RATE_LIMIT_POINTS, burst: value.RATE_LIMIT_BURST },
    webhook: {
      pollMs: value.WEBHOOK_POLL_MS,
      backoffMs: value.WEBHOOK_BACKOFF_MS,
      maxAttempts: value.WEBHOOK_MAX_ATTEMPTS,
      timeoutMs: value.WEBHOOK_TIMEOUT_MS,
    },
  };
}
