// Typed client for the dispatch API: openapi-fetch over the generated types, plus auth, User-Agent and retry.
import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import { sdkVersion } from "./generated/version.js";
import { deprecationMiddleware, type DeprecationNotice } from "./deprecation.js";
import { withRetry, type RetryOptions } from "./retry.js";

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
  /** Provisioned key: sent as `x-api-key` (and as `Authorization: Bearer` to the MCP endpoint). */
  apiKey?: string;
  /** Self-serve OAuth access token (quote only): sent as `Authorization: Bearer`. */
  accessToken?: string;
  /** Operator token for `/api/admin/v1/*`. */
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

function authMiddleware(options: DispatchClientOptions): Middleware {
  return {
    onRequest({ request }) {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/api/admin/")) {
        if (options.adminToken) request.headers.set("authorization", `Bearer ${options.adminToken}`);
      } else if (path === "/api/mcp") {
        const bearer = options.apiKey ?? options.accessToken;
        if (bearer) request.headers.set("authorization", `Bearer ${bearer}`);
      } else if (options.apiKey) {
        request.headers.set("x-api-key", options.apiKey);
      } else if (options.accessToken) {
        request.headers.set("authorization", `Bearer ${options.accessToken}`);
      }
      if (!request.headers.has("user-agent"))
        request.headers.set("user-agent", options.userAgent ?? defaultUserAgent());
      return request;
    },
  };
}

/** Every order creation carries an Idempotency-Key, set once here so each retry of it resends the same one. */
const idempotencyMiddleware: Middleware = {
  onRequest({ request }) {
    const createsOrder = request.method === "POST" && new URL(request.url).pathname.endsWith("/order");
    if (createsOrder && !request.headers.has("idempotency-key"))
      request.headers.set("idempotency-key", globalThis.crypto.randomUUID());
    return request;
  },
};

export function createDispatchClient(options: DispatchClientOptions): DispatchClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ""),
    fetch: withRetry(baseFetch, options.retry === false ? { retries: 0 } : options.retry, options.timeoutMs),
    headers: options.headers,
  });
  client.use(authMiddleware(options), idempotencyMiddleware, deprecationMiddleware(options.onDeprecation));
  return client;
}
