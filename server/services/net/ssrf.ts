// The one SSRF guard for every outbound request (probe targets, webhook callbacks): a URL is allowed only when
// its host is a public name whose every address is public unicast, including IPv4 addresses hidden in IPv6.
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/** node:dns `lookup`; injectable so tests can play a resolver (and a rebinding one) without the network. */
export type Lookup = typeof dnsLookup;
export interface TargetPolicy {
  /** Loopback targets (local fixtures) are allowed; every other non-public range stays refused. */
  allowLoopback: boolean;
  lookup?: Lookup;
}

// Internal or special-use names (RFC 6761, 6762, 7686, 8375): never a public site, so refused without DNS.
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

/** An IPv4-compatible IPv6 address (::/96, e.g. ::7f00:1): ipaddr.js calls it unicast, yet it carries IPv4. */
function compatibleIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = ip.parts;
  if (p.slice(0, 6).some((part) => part !== 0)) return null;
  return new ipaddr.IPv4([p[6] >> 8, p[6] & 255, p[7] >> 8, p[7] & 255]);
}

/** Null for a public unicast address (or loopback when allowed), else its forbidden range; IPv4 forms as their IPv4. */
export function forbiddenRange(address: string, allowLoopback: boolean): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  let ip = ipaddr.process(address); // process(): ::ffff:a.b.c.d is judged as a.b.c.d
  if (ip.kind() === "ipv6" && ip.range() === "unicast") ip = compatibleIpv4(ip as ipaddr.IPv6) ?? ip;
  const range = ip.range();
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

const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");

/** Why `url` may not be fetched (literal or resolved address, internal name, unresolvable), or null. */
export async function refusalOf(url: URL, policy: TargetPolicy): Promise<string | null> {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} URLs are not fetched.`;
  if (url.username || url.password) return "URLs with credentials are not fetched.";
  const host = bareHost(url);
  if (isIP(host)) {
    const range = forbiddenRange(host, policy.allowLoopback);
    return range ? `${url.origin} is a forbidden address (${range}).` : null;
  }
  const loopbackName = /^localhost$|\.localhost$/.test(host);
  if (!(policy.allowLoopback && loopbackName) && (internalNames.some((name) => name.test(host)) || !host.includes(".")))
    return `${host} is an internal host name.`;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host, policy.lookup ?? dnsLookup);
  } catch {
    return `${host} does not resolve.`;
  }
  if (addresses.length === 0) return `${host} does not resolve.`;
  for (const { address } of addresses) {
    const range = forbiddenRange(address, policy.allowLoopback);
    if (range) return `${host} resolves to a forbidden address (${range}).`;
  }
  return null;
}

/** A `lookup` for sockets that fails when the name now resolves to a forbidden address (DNS rebinding). */
export function guardedLookup(policy: TargetPolicy): Lookup {
  const lookup = policy.lookup ?? dnsLookup;
  return ((host: string, options: LookupAllOptions, callback: (...args: unknown[]) => void) => {
    resolveAll(host, lookup).then(
      (addresses) => {
        const bad = addresses.find(({ address }) => forbiddenRange(address, policy.allowLoopback));
        if (bad) {
          callback(new Error(`${host} resolves to ${bad.address}, which is not allowed`));
          return;
        }
        if (options?.all) {
          callback(null, addresses);
          return;
        }
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: unknown) => {
        callback(error);
      },
    );
  }) as unknown as Lookup;
}
