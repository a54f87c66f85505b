// Probe targets: parse a URL or bare domain, and refuse anything that is not a public http(s) address before
// a single packet is sent (schemes, credentials, internal names, literal and resolved non-unicast addresses).
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { DomainError } from "../errors.js";

/** node:dns `lookup`; injectable so tests can play a resolver (and a rebinding one) without the network. */
export type Lookup = typeof dnsLookup;
export interface TargetPolicy {
  /** PROBE_ALLOW_PRIVATE: loopback targets (local fixture storefronts) are allowed; every other range stays refused. */
  allowLoopback: boolean;
  lookup?: Lookup;
}

// Internal or special-use names (RFC 6761, 6762, 7686, 8375): never a public storefront, so refused without DNS.
const internalNames = [
  /^localhost$/,
  /\.localhost$/,
  /\.internal$/,
  /\.local$/,
  /\.arpa$/,
  /\.invalid$/,
  /\.test$/,
  /\.example$/,
  /\.onion$/,
  /^metadata\./,
];

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

/** Null for a public unicast address (or loopback when allowed), else the name of its forbidden range. */
export function forbiddenRange(address: string, allowLoopback: boolean): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  const range = ipaddr.process(address).range(); // process(): ::ffff:a.b.c.d is judged as a.b.c.d
  if (range === "unicast" || (allowLoopback && range === "loopback")) return null;
  return range;
}

function resolveAll(host: string, lookup: Lookup): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true } satisfies LookupAllOptions, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses);
    });
  });
}

/** Throws invalid_url unless every address the host stands for (literal or resolved) is allowed. */
export async function assertPublicTarget(url: URL, policy: TargetPolicy): Promise<void> {
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  if (isIP(host)) {
    const range = forbiddenRange(host, policy.allowLoopback);
    if (range) throw invalidUrl(`${url.origin} is a forbidden address (${range}).`);
    return;
  }
  const loopbackName = /^localhost$|\.localhost$/.test(host);
  if (
    !(policy.allowLoopback && loopbackName) &&
    (internalNames.some((name) => name.test(host)) || !host.includes("."))
  ) {
    throw invalidUrl(`${host} is an internal host name.`);
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host, policy.lookup ?? dnsLookup);
  } catch {
    throw invalidUrl(`${host} does not resolve.`);
  }
  for (const { address } of addresses) {
    const range = forbiddenRange(address, policy.allowLoopback);
    if (range) throw invalidUrl(`${host} resolves to a forbidden address (${range}).`);
  }
  if (addresses.length === 0) throw invalidUrl(`${host} does not resolve.`);
}
