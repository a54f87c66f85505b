// What each configuration variable means, as one table: README's variable table is this table (a unit test compares
// them row by row) and `dispatch-server start --help` gives each flag its row's meaning. A variable added to
// server/config.ts gets a row here (the test names a variable without one) and the same line in README.

/** One row of README's table: the variables it documents, their defaults as README shows them, what they mean. */
export interface VariableRow {
  variables: readonly string[];
  defaults: string;
  meaning: string;
}

export const variableRows: readonly VariableRow[] = [
  {
    variables: ["HOST", "PORT"],
    defaults: "`127.0.0.1`, `3000`",
    meaning: "where to listen",
  },
  {
    variables: ["DATABASE_URL"],
    defaults: "`pglite://./.data`",
    meaning: "`pglite://memory` for in-memory, `postgres://user@host:5432/db` for real Postgres",
  },
  {
    variables: ["REDIS_URL"],
    defaults: "unset",
    meaning:
      "share rate limits across instances (`redis://127.0.0.1:6379`); an unreachable or unanswering Redis (see `REDIS_COMMAND_TIMEOUT_MS`) falls back to per-instance limits",
  },
  {
    variables: ["DISPATCH_ADMIN_TOKEN"],
    defaults: "unset",
    meaning: "bearer token of the admin area (`/api/admin/v1/...`, ≥16 characters); unset = admin area answers 503",
  },
  {
    variables: ["DISPATCH_DISABLED"],
    defaults: "`false`",
    meaning: "`true` makes quote/order answer 503",
  },
  {
    variables: ["DISPATCH_SEED_DEMO"],
    defaults: "`true`",
    meaning:
      "seed the demo contractor pool into an empty database (every trade in CA, TX, FL, NY, IL, PA, OH, GA; none in AK)",
  },
  {
    variables: ["PUBLIC_BASE_URL"],
    defaults: "request origin",
    meaning: "base of absolute URLs the server hands out (status URLs, agent card)",
  },
  {
    variables: ["MCP_ALLOWED_ORIGINS"],
    defaults: "`PUBLIC_BASE_URL`'s origin (else the request's own)",
    meaning:
      "comma-separated origins (`https://app.example,https://b.example`) allowed to call `/api/mcp`; a request with any other `Origin` is a 403 problem, one without `Origin` passes",
  },
  {
    variables: ["LOG_LEVEL"],
    defaults: "`info`",
    meaning: "pino level (`silent` in tests)",
  },
  {
    variables: ["PROVISIONING_CONTACT", "ESCALATION_CONTACT"],
    defaults: "`provisioning@dispatch.example`, `dispatch-escalations@dispatch.example`",
    meaning: "contacts named in 402 and 202 bodies",
  },
  {
    variables: ["OAUTH_TOKEN_TTL_SECONDS"],
    defaults: "`3600`",
    meaning: "lifetime of self-serve access tokens",
  },
  {
    variables: ["WEBHOOK_ALLOW_PRIVATE"],
    defaults: "`false`",
    meaning:
      "let every order call back to private and loopback addresses (local development and tests; sandbox mode already lets test-key orders call back to loopback)",
  },
  {
    variables: ["WEBHOOK_POLL_MS", "WEBHOOK_BACKOFF_MS", "WEBHOOK_MAX_ATTEMPTS", "WEBHOOK_TIMEOUT_MS"],
    defaults: "`1000`, `10000`, `12`, `10000`",
    meaning:
      "webhook worker: outbox poll interval, first retry delay (doubles each attempt), attempts before a message is marked dead, per-delivery timeout",
  },
  {
    variables: ["PROBE_ALLOW_PRIVATE"],
    defaults: "`false`",
    meaning:
      "let the readiness probe fetch loopback storefronts (tests only; private, link-local and metadata ranges stay refused)",
  },
  {
    variables: ["SANDBOX_STEP_MS"],
    defaults: "`5000`",
    meaning:
      "sandbox: orders made with a `dispatch_test_` key take one lifecycle step this often; `0` = only `POST …/sandbox/orders/{id}/advance` moves them",
  },
  {
    variables: ["DISPATCH_SANDBOX"],
    defaults: "`false`",
    meaning:
      "sandbox mode for integrators' CI (see Test your integration in CI): `pglite://memory` unless `DATABASE_URL` is set, `SANDBOX_STEP_MS` 500, a ready test key, test-key callbacks to loopback",
  },
  {
    variables: ["DISPATCH_SANDBOX_KEY"],
    defaults: "generated, printed once",
    meaning: "sandbox mode's test key (`dispatch_test_…` as the server issues them), usable without an admin call",
  },
  {
    variables: ["DISPATCH_SANDBOX_ACCOUNT"],
    defaults: "`sandbox`",
    meaning: "the sandbox key's account",
  },
  {
    variables: ["DISPATCH_FIXTURES"],
    defaults: "unset",
    meaning:
      "Sandbox mode only: YAML or JSON file (at most 1 MiB) of contractors and test keys loaded at start, all or nothing (schema: `SandboxFixtures` in openapi.yaml)",
  },
  {
    variables: ["EVENT_STREAMS_PER_KEY", "EVENT_STREAM_MAX_SECONDS"],
    defaults: "`10`, `3600`",
    meaning:
      "SSE event streams: concurrent streams one key may hold on an instance (one more is a 429 with `Retry-After`), and how long a stream lives before the server ends it (the client resumes with `Last-Event-ID`)",
  },
  {
    variables: ["RATE_LIMIT_POINTS", "RATE_LIMIT_BURST"],
    defaults: "`100`, `100`",
    meaning: "per-key window and burst allowance per 60 s (raise only for load tests)",
  },
  {
    variables: ["AUTH_FAILURES_PER_CREDENTIAL", "AUTH_FAILURES_PER_ADDRESS"],
    defaults: "`20`, `200`",
    meaning:
      "failed-credential budgets per 5 min: per (client address, credential) and per client address (see Security limits); `RATE_LIMIT_POINTS` does not scale them",
  },
  {
    variables: ["REDIS_COMMAND_TIMEOUT_MS"],
    defaults: "`500`",
    meaning:
      "a Redis command unanswered this long fails over to the per-instance limits, and the silent connection is dropped and reconnected",
  },
  {
    variables: ["DATABASE_STATEMENT_TIMEOUT_MS"],
    defaults: "`5000`",
    meaning:
      "Postgres `statement_timeout` of every pooled connection (lock waits included) and the wait for a pooled connection; past it the request is a 503 `database_timeout` with `Retry-After`; `0` = none; migrations run without it; PGlite ignores it",
  },
  {
    variables: ["MAX_REQUESTS_IN_FLIGHT"],
    defaults: "`256`",
    meaning:
      "`/api/` requests handled at once per instance; past it a new one is answered 503 `overloaded` with `Retry-After: 1` at once (health, readiness and metrics are exempt)",
  },
  {
    variables: ["EVALS_CACHE_MS"],
    defaults: "`30000`",
    meaning: "how long an evals document is served before it is computed again (`0` = every call)",
  },
  {
    variables: ["A2A_TASK_BYTES_PER_CALLER", "A2A_TASK_BYTES"],
    defaults: "`2097152` (2 MiB), `67108864` (64 MiB)",
    meaning:
      "A2A task memory, in bytes of task JSON, per authenticated caller and in all; past either the oldest finished tasks are forgotten first",
  },
  {
    variables: ["SHUTDOWN_GRACE_MS"],
    defaults: "`25000`",
    meaning: "on SIGTERM/SIGINT, how long requests in flight may take before their connections are cut (see Operating)",
  },
  {
    variables: ["METRICS_PORT", "METRICS_HOST"],
    defaults: "unset, `127.0.0.1`",
    meaning: "also serve the metrics at `GET /metrics` without a token on this port and interface (see Operating)",
  },
  {
    variables: ["HTTP_REQUEST_TIMEOUT_MS"],
    defaults: "`15000`",
    meaning:
      "time a client has to send a whole request (headers within two thirds of it); stalled sockets are cut (see Security limits)",
  },
  {
    variables: ["TRUSTED_PROXIES"],
    defaults: "unset",
    meaning: "comma-separated addresses or CIDR ranges of the proxies whose `X-Forwarded-For` is believed",
  },
  {
    variables: ["AUDIT_LOG_ORIGIN", "AUDIT_SIGNING_KEY", "AUDIT_BATCH_MS"],
    defaults: "`dispatch.example/audit`, generated and kept in the database, `1000`",
    meaning:
      "audit log: the checkpoints' origin line, the signed-note private key, and the most ms between sequencing batches (see Trust)",
  },
  {
    variables: ["BUILD_HASH"],
    defaults: "`git rev-parse --short=12 HEAD` (recorded at build)",
    meaning: "the build named in `/api/capabilities`",
  },
  {
    variables: ["NODE_ENV"],
    defaults: "unset",
    meaning: "`production` requires `PUBLIC_BASE_URL`",
  },
];

/** The row as README's markdown shows it. */
export const markdownRow = (row: VariableRow): string =>
  `| ${row.variables.map((name) => `\`${name}\``).join(", ")} | ${row.defaults} | ${row.meaning} |`;

/** The variable's meaning as plain text for --help (no markdown backticks), or undefined without a row. */
export function meaningOf(variable: string): string | undefined {
  const row = variableRows.find((candidate) => candidate.variables.includes(variable));
  return row?.meaning.replaceAll("`", "");
}
