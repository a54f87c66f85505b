// Fetches one probe document with node:http(s) through request-filtering-agent, which re-checks every resolved
// address at connect time (DNS rebinding). Redirects are followed by hand, each hop re-validated; time and size capped.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { DomainError } from "../errors.js";
import { assertPublicTarget, type TargetPolicy } from "./url.js";

export interface FetchLimits {
  /** Per request (connect + body), ms. */
  perFetchMs: number;
  maxBytes: number;
  maxRedirects: number;
}
export const defaultLimits: FetchLimits = { perFetchMs: 5000, maxBytes: 1024 * 1024, maxRedirects: 3 };

export type FailureReason = "forbidden" | "unreachable" | "timeout" | "too_large" | "too_many_redirects";
export type Fetched =
  | { ok: true; url: string; status: number; contentType: string; body: string }
  | { ok: false; url: string; reason: FailureReason; detail: string };

interface Raw {
  status: number;
  location?: string;
  contentType: string;
  body: string;
}

class FetchFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
  ) {
    super(message);
  }
}

interface RequestPlan {
  agent: http.Agent;
  lookup: TargetPolicy["lookup"];
  signal: AbortSignal;
  limits: FetchLimits;
}

// eslint-disable-next-line max-lines-per-function -- to split after the harden rewrite of this file lands (issue 12)
function requestOnce(url: URL, plan: RequestPlan): Promise<Raw> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        agent: plan.agent,
        lookup: plan.lookup,
        signal: AbortSignal.any([plan.signal, AbortSignal.timeout(plan.limits.perFetchMs)]),
        headers: {
          "user-agent": "DispatchReadinessProbe/1.0 (snapshot)",
          accept: "*/*",
          "accept-encoding": "identity",
        },
      },
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
          if (size > plan.limits.maxBytes)
            request.destroy(new FetchFailure("too_large", `larger than ${plan.limits.maxBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on("end", () => {
          resolve({ status, contentType, body: Buffer.concat(chunks).toString("utf8") });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

function failureOf(url: URL, error: unknown): Fetched {
  if (error instanceof FetchFailure) return { ok: false, url: url.href, reason: error.reason, detail: error.message };
  if (error instanceof DomainError) return { ok: false, url: url.href, reason: "forbidden", detail: error.message };
  const e = error as Error & { code?: string };
  if (e.message.includes("is not allowed"))
    return { ok: false, url: url.href, reason: "forbidden", detail: `${url.host} connects to a forbidden address.` };
  if (e.name === "AbortError" || e.name === "TimeoutError" || e.code === "ABORT_ERR")
    return { ok: false, url: url.href, reason: "timeout", detail: "no answer in time" };
  return { ok: false, url: url.href, reason: "unreachable", detail: e.code ?? e.message };
}

function nextHop(location: string, from: URL): URL {
  const url = new URL(location, from);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchFailure("forbidden", `redirect to a ${url.protocol} URL refused.`);
  if (url.username || url.password) throw new FetchFailure("forbidden", "redirect to a URL with credentials refused.");
  return url;
}

export function createFetcher(policy: TargetPolicy, limits: FetchLimits = defaultLimits) {
  // Loopback is only reachable when PROBE_ALLOW_PRIVATE is set; the agents refuse every other non-unicast address.
  const filter = {
    allowPrivateIPAddress: false,
    allowMetaIPAddress: false,
    allowIPAddressList: policy.allowLoopback ? ["127.0.0.0/8", "::1"] : [],
    keepAlive: false,
  };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };

  /** GET `start`, following up to maxRedirects redirects, each re-validated; never throws. */
  return async function fetchDocument(start: URL, signal: AbortSignal): Promise<Fetched> {
    let url = start;
    try {
      for (let hop = 0; hop <= limits.maxRedirects; hop++) {
        await assertPublicTarget(url, policy);
        const agent = url.protocol === "https:" ? agents.https : agents.http;
        const raw = await requestOnce(url, { agent, lookup: policy.lookup, signal, limits });
        if (raw.location === undefined)
          return { ok: true, url: url.href, status: raw.status, contentType: raw.contentType, body: raw.body };
        url = nextHop(raw.location, url);
      }
      return {
        ok: false,
        url: url.href,
        reason: "too_many_redirects",
        detail: `more than ${limits.maxRedirects} redirects`,
      };
    } catch (error) {
      return failureOf(url, error);
    }
  };
}

export type FetchDocument = ReturnType<typeof createFetcher>;
