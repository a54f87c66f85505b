// `--dry-run`: the exact request the SDK would send, printed as a curl command; secrets masked unless asked.
import type { HttpRequest } from "./http.js";

const secretHeaders = new Set(["authorization", "x-api-key", "cookie", "proxy-authorization"]);
const secretFields = /((?:^|&)(?:client_secret|password)=)[^&]*/g;

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

function maskHeader(name: string, value: string): string {
  if (!secretHeaders.has(name)) return value;
  const scheme = /^(Bearer|Basic)\s+/i.exec(value)?.[0] ?? "";
  return `${scheme}****`;
}

/** Headers in name order, as fetch's Headers lists them. */
export function toCurl(request: HttpRequest, showSecrets: boolean): string {
  const lines = [`curl -X ${request.method} ${quote(request.url)}`];
  for (const name of Object.keys(request.headers).sort()) {
    const value = request.headers[name];
    lines.push(`-H ${quote(`${name}: ${showSecrets ? value : maskHeader(name, value)}`)}`);
  }
  const body = request.body ?? "";
  if (body) lines.push(`--data-raw ${quote(showSecrets ? body : body.replace(secretFields, "$1****"))}`);
  return `${lines.join(" \\\n  ")}\n`;
}
