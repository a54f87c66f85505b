// The client's address: the socket peer, or, only when that peer is a configured trusted proxy, the nearest
// X-Forwarded-For hop that is not itself a trusted proxy. Headers from anyone else are ignored (spoofable).
// Per-client budgets key on clientBucketOf(): the IPv4 address, or the /64 an IPv6 address belongs to.
import type { Request } from "@hapi/hapi";
import ipaddr from "ipaddr.js";

function parseAndPrint(address: string): string {
  try {
    return ipaddr.process(address.trim()).toString();
  } catch {
    return address.trim();
  }
}

/** One subscriber is routinely given a whole IPv6 /64 (RFC 6177), so a budget per full address would hand one
 * client 2^64 of them; IPv4 (IPv4-mapped IPv6 included, already unmapped by `ipaddr.process`) stays as is. */
function bucketText(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.replace(/%.*$/, "")}/64`).toString()}/64`;
}

// Every request of a connection (and of a proxy) repeats the same address: parse each one once. Bounded: a
// map is emptied when full, so forged X-Forwarded-For values cannot grow it.
const memoLimit = 10_000;

function memoised(compute: (address: string) => string): (address: string) => string {
  const memo = new Map<string, string>();
  return (address) => {
    let text = memo.get(address);
    if (text === undefined) {
      text = compute(address);
      if (memo.size >= memoLimit) memo.clear();
      memo.set(address, text);
    }
    return text;
  };
}

const normalise = memoised(parseAndPrint);
const bucketOf = memoised(bucketText);

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

/** The key of the client's per-address budgets: its IPv4 address, or its IPv6 address's /64 (`2001:db8:1:2::/64`). */
export function clientBucketOf(request: Request, trusted: readonly string[]): string {
  return bucketOf(clientIpOf(request, trusted));
}
