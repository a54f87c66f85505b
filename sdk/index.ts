// Typed client for the dispatch API: openapi-fetch over the generated types, plus auth (sdk/auth.ts), User-Agent,
// idempotency keys and retry.
import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { sdkVersion } from "./generated/version.js";
import { deprecationMiddleware, type DeprecationNotice } from "./deprecation.js";
import { withRetry, type RetryOptions } from "./retry.js";
import { authMiddleware } from "./auth.js";
import { idempotencyMiddleware } from "./idempotency.js";

export type { components, paths, operations } from "./generated/openapi.js";
export { DispatchApiError, DispatchTimeoutError, createApiError, unwrap } from "./errors.js";
export { paginate, type ListItem, type ListPath } from "./paginate.js";
export type { RetryOptions } from "./retry.js";
export { formatDeprecationNotice, noticeDeprecation, type DeprecationNotice } from "./deprecation.js";
/** This package's version (sdk/package.json, through `npm run generate`), sent in the default User-Agent. */
export { sdkVersion };

export type Schemas = components["schemas"];
export type DispatchClient = Client<paths>;

export interface DispatchClientOptions {
  baseUrl: string;
  /** Provisioned key: sent as `x-api-key` (and as `Authorization: Bearer` to the MCP endpoint); never to admin ones. */
  apiKey?: string;
  /** Self-serve OAuth access token (quote only): sent as `Authorization: Bearer`. */
  accessToken?: string;
  /** Operator token, sent only to the operations the contract secures with AdminToken (`/api/admin/v1/*`). */
  adminToken?: string;
  /** Inject a fetch (tests, proxies). Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Retry policy for 429/503 and, for GET or keyed POST only, network errors; `false` disables retries. */
  retry?: RetryOptions | false;
  /** Client-wide limit for each attempt in ms (a per-call deadline: pass `signal: AbortSignal.timeout(ms)`). */
  timeoutMs?: number;
  userAgent?: string;
  headers?: Record<string, string>;
  /** Called once per process for the first answer carrying `Deprecation` (default: one line on stderr). */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

/** `dispatch-sdk/x.y.z`, plus `node/…` only where there is a Node `process` (not in browsers or Workers). */
function defaultUserAgent(): string {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return node ? `dispatch-sdk/${sdkVersion} node/${node}` : `dispatch-sdk/${sdkVersion}`;
}

/** The User-Agent, unless the call gave one. */
function userAgentMiddleware(userAgent: string | undefined): Middleware {
  return {
    onRequest({ request }) {
      if (!request.headers.has("user-agent")) request.headers.set("user-agent", userAgent ?? defaultUserAgent());
      return request;
    },
  };
}

export function createDispatchClient(options: DispatchClientOptions): DispatchClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ""),
    fetch: withRetry(baseFetch, options.retry === false ? { retries: 0 } : options.retry, options.timeoutMs),
    headers: options.headers,
  });
  client.use(
    authMiddleware(options),
    userAgentMiddleware(options.userAgent),
    idempotencyMiddleware,
    deprecationMiddleware(options.onDeprecation),
  );
  return client;
}
