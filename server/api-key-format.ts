// The API key format: `dispatch_{test|live}_` + 32 base62 characters + a 6-character checksum. Outside services/
// because the configuration checks a sandbox key's format at boot, before any service exists.
import { hash } from "node:crypto";

const keyPattern = /^dispatch_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** Six base62 characters derived from the SHA-256 of the key body: catches typos without a lookup. */
export function apiKeyChecksum(body: string): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let n = parseInt(hash("sha256", body, "hex").slice(0, 12), 16);
  let out = "";
  for (let i = 0; i < 6; i++) {
    out += alphabet[n % 62];
    n = Math.floor(n / 62);
  }
  return out;
}

/** Cheap structural check before touching the database: format and checksum. */
export function looksLikeApiKey(value: string): boolean {
  const match = keyPattern.exec(value);
  if (!match) return false;
  return apiKeyChecksum(`${match[1]}_${match[2]}`) === match[3];
}
