// Fetches one probe document with node:http(s) through request-filtering-agent, which re-checks every resolved
// address at connect time (DNS rebinding). Redirects are followed by hand, each hop re-validated; time and size capped.
import { DomainError } from "../errors.js";
import { createOutboundClient, FetchFailure, type FailureReason } from "../net/http.js";
import { assertPublicTarget, type TargetPolicy } from "./url.js";

export type { FailureReason } from "../net/http.js";
export interface FetchLimits {
  /** Per request (connect + body), ms. */
  perFetchMs: number;
  maxBytes: number;
  maxRedirects: number;
}
export const defaultLimits: FetchLimits = { perFetchMs: 5000, maxBytes: 1024 * 1024, maxRedirects: 3 };

export type Fetched =
  | { ok: true; url: string; status: number; contentType: string; body: string }
  | { ok: false; url: string; reason: FailureReason; detail: string };

const probeHeaders = {
  "user-agent": "DispatchReadinessProbe/1.0 (snapshot)",
  accept: "*/*",
  "accept-encoding": "identity",
};

function failureOf(url: URL, error: unknown): Fetched {
  if (error instanceof FetchFailure) return { ok: false, url: url.href, reason: error.reason, detail: error.message };
  if (error instanceof DomainError) return { ok: false, url: url.href, reason: "forbidden", detail: error.message };
  const e = error instanceof Error ? error : new Error(String(error));
  const code = "code" in e && typeof e.code === "string" ? e.code : undefined;
  if (e.message.includes("is not allowed"))
    return { ok: false, url: url.href, reason: "forbidden", detail: `${url.host} connects to a forbidden address.` };
  if (e.name === "AbortError" || e.name === "TimeoutError" || code === "ABORT_ERR")
    return { ok: false, url: url.href, reason: "timeout", detail: "no answer in time" };
  return { ok: false, url: url.href, reason: "unreachable", detail: code ?? e.message };
}

function nextHop(location: string, from: URL): URL {
  const url = new URL(location, from);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchFailure("forbidden", `redirect to a ${url.protocol} URL refused.`);
  if (url.username || url.password) throw new FetchFailure("forbidden", "redirect to a URL with credentials refused.");
  return url;
}

export function createFetcher(policy: TargetPolicy, limits: FetchLimits = defaultLimits) {
  // Loopback is only reachable when PROBE_ALLOW_PRIVATE is set; every other non-public address is refused.
  const client = createOutboundClient(policy);

  /** GET `start`, following up to maxRedirects redirects, each re-validated; never throws. */
  return async function fetchDocument(start: URL, signal: AbortSignal): Promise<Fetched> {
    let url = start;
    try {
      for (let hop = 0; hop <= limits.maxRedirects; hop++) {
        await assertPublicTarget(url, policy);
        const raw = await client.request(url, {
          method: "GET",
          headers: probeHeaders,
          signal,
          timeoutMs: limits.perFetchMs,
          maxBytes: limits.maxBytes,
        });
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
