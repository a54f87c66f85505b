// Order-time SSRF guard for callback URLs: the host must resolve only to public unicast addresses.
// Delivery re-checks every connection with request-filtering-agent (DNS can change after the order).
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { DomainError } from "../errors.js";

const forbidden = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  forbidden.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  forbidden.addSubnet(net, prefix, "ipv6");

/** True for loopback, private, link-local, metadata, documentation, multicast and other non-public addresses. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return forbidden.check(address, family === 4 ? "ipv4" : "ipv6");
}

function refuse(detail: string): never {
  throw new DomainError("validation", "validation_failed", detail, {
    errors: [{ pointer: "/callback_url", message: detail }],
  });
}

async function addressesOf(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOTFOUND") refuse(`"callback_url" host ${host} does not resolve.`);
    return []; // transient DNS failure: accept now; delivery checks again
  }
}

/** 422 (pointer /callback_url) when the callback URL is not public http(s), unless private targets are allowed. */
export async function assertCallbackAllowed(callbackUrl: string | undefined, allowPrivate: boolean): Promise<void> {
  if (!callbackUrl || allowPrivate) return;
  const url = new URL(callbackUrl);
  if (url.username || url.password) refuse('"callback_url" must not carry credentials.');
  const bad = (await addressesOf(url.hostname)).find(isForbiddenAddress);
  if (bad)
    refuse(`"callback_url" resolves to a forbidden (private, loopback, link-local or reserved) address: ${bad}.`);
}
