// The client's address: the socket peer, or, only when that peer is a configured trusted proxy, the nearest
// X-Forwarded-For hop that is not itself a trusted proxy. Headers from anyone else are ignored (spoofable).
import type { Request } from "@hapi/hapi";
import ipaddr from "ipaddr.js";

function parseAndPrint(address: string): string {
  try {
    return ipaddr.process(address.trim()).toString();
  } catch {
    return address.trim();
  }
}

// Every request of a connection (and of a proxy) repeats the same address: parse each one once. Bounded: the
// map is emptied when full, so forged X-Forwarded-For values cannot grow it.
const normalised = new Map<string, string>();
const normalisedLimit = 10_000;

function normalise(address: string): string {
  let text = normalised.get(address);
  if (text === undefined) {
    text = parseAndPrint(address);
    if (normalised.size >= normalisedLimit) normalised.clear();
    normalised.set(address, text);
  }
  return text;
}

/** True when `address` matches an entry of `trusted` (an address or a CIDR range). */
export function isTrustedProxy(address: string, trusted: readonly string[]): boolean {
  if (!trusted.length || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return trusted.some((entry) => {
    if (!entry.includes("/")) return ipaddr.isValid(entry) && ipaddr.process(entry).toString() === ip.toString();
    const [range, bits] = ipaddr.parseCIDR(entry);
    return ip.kind() === range.kind() && ip.match([range, bits]);
  });
}

export function clientIpOf(request: Request, trusted: readonly string[]): string {
  const peer = normalise(request.info.remoteAddress);
  if (!isTrustedProxy(peer, trusted)) return peer;
  const forwarded: unknown = request.headers["x-forwarded-for"];
  const hops = (typeof forwarded === "string" ? forwarded : "")
    .split(",")
    .map((hop) => normalise(hop))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrustedProxy(hops[i], trusted)) return hops[i];
  return hops[0] ?? peer;
}
