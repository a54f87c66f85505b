// The one outbound HTTP client (probe fetches, webhook deliveries): node:http(s) through request-filtering-agent
// plus a guarded DNS lookup, so every connection is re-checked against the SSRF guard at connect time.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { guardedLookup, type TargetPolicy } from "./ssrf.js";

export type FailureReason = "forbidden" | "unreachable" | "timeout" | "too_large" | "too_many_redirects";

/** Raised when an outbound exchange breaks one of our own limits (size, redirects, target). */
export class FetchFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Bodies past this many bytes abort the exchange with FetchFailure("too_large"). */
  maxBytes: number;
}
export interface OutboundResponse {
  status: number;
  /** Set for a 3xx with Location; redirects are never followed here (callers re-validate each hop). */
  location?: string;
  contentType: string;
  body: string;
}
export interface ClientPolicy extends TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: every address is allowed (local receivers in development and tests). */
  allowPrivate?: boolean;
}

function exchange(url: URL, req: OutboundRequest, options: http.RequestOptions): Promise<OutboundResponse> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const signals = [AbortSignal.timeout(req.timeoutMs), ...(req.signal ? [req.signal] : [])];
    const request = client.request(
      url,
      { ...options, method: req.method, headers: req.headers, signal: AbortSignal.any(signals) },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = response.headers["content-type"] ?? "";
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          resolve({ status, location: response.headers.location, contentType, body: "" });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > req.maxBytes) request.destroy(new FetchFailure("too_large", `larger than ${req.maxBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on("end", () => {
          resolve({ status, contentType, body: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(req.body);
  });
}

export function createOutboundClient(policy: ClientPolicy) {
  const filter = {
    allowPrivateIPAddress: policy.allowPrivate ?? false,
    allowMetaIPAddress: policy.allowPrivate ?? false,
    allowIPAddressList: policy.allowLoopback ? ["127.0.0.0/8", "::1"] : [],
    keepAlive: false,
  };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  const lookup = policy.allowPrivate ? policy.lookup : guardedLookup(policy);

  return {
    /** One exchange (no redirect following); rejects on network errors, timeouts and FetchFailure. */
    request(url: URL, req: OutboundRequest): Promise<OutboundResponse> {
      return exchange(url, req, { agent: url.protocol === "https:" ? agents.https : agents.http, lookup });
    },
    destroy(): void {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type OutboundClient = ReturnType<typeof createOutboundClient>;
