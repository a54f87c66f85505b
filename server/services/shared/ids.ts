// Identifiers, secrets and hashes.
import { createHash, randomBytes } from "node:crypto";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Base62 text of `bytes` random bytes (about 5.95 bits per character). */
export function randomBase62(length: number): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out.push(alphabet[byte % 62]);
    }
  }
  return out.join("");
}

/** Time-ordered id: prefix + 10 base32 time characters + 16 random characters (like a ULID). */
export function newId(prefix: string): string {
  const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let time = Date.now();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = crockford[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const random = [...randomBytes(16)].map((b) => crockford[b % 32]).join("");
  return `${prefix}_${timePart}${random}`;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Masked reference shown instead of a contractor's identity. */
export function maskRef(contractorId: string): string {
  return `ctr_****${sha256Hex(contractorId).slice(0, 4)}`;
}

/** Canonical JSON (sorted keys) so equal objects hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
