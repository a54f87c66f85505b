// Probe targets: parse a URL or bare domain, and refuse anything that is not a public http(s) address before
// a single packet is sent (the shared SSRF guard in net/ssrf.ts decides which addresses are public).
import { DomainError } from "../errors.js";
import { refusalOf, type TargetPolicy } from "../net/ssrf.js";

export { forbiddenRange, type Lookup, type TargetPolicy } from "../net/ssrf.js";

export function invalidUrl(detail: string): DomainError {
  return new DomainError("bad_request", "invalid_url", detail);
}

/** A URL or bare domain (https assumed) -> URL; only http and https, no credentials. */
export function parseProbeUrl(input: string): URL {
  const text = input.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  // "shop.example:8080" has no scheme; "javascript:alert(1)" and "mailto:x" have one.
  const hasScheme = scheme !== null && (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || !/^[^:]+:\d+(\/|$)/.test(text));
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `https://${text}`);
  } catch {
    throw invalidUrl(`${JSON.stringify(text)} is not a URL or domain name.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalidUrl(`Only http and https URLs can be probed, not ${url.protocol}`);
  if (url.username || url.password) throw invalidUrl("URLs with credentials are not probed.");
  if (!url.hostname) throw invalidUrl("The URL has no host.");
  url.hash = "";
  return url;
}

/** Throws invalid_url unless every address the host stands for (literal or resolved) is allowed. */
export async function assertPublicTarget(url: URL, policy: TargetPolicy): Promise<void> {
  const refusal = await refusalOf(url, policy);
  if (refusal) throw invalidUrl(refusal);
}
