// Identifiers, secrets and hashes.
import { hash, randomFillSync } from "node:crypto";
import { isRecord } from "./is-record.js";

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// One CSPRNG call per 4 KiB instead of one per id (as Node pools randomUUID); bytes are never handed out twice.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function nextRandomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** Base62 text of `length` uniformly random characters (about 5.95 bits each; bytes ≥ 248 are rejected). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out;
}

/** Time-ordered id: prefix + 10 base32 time characters + 16 random characters (like a ULID). */
export function newId(prefix: string): string {
  let time = Date.now();
  let timePart = "";
  for (let i = 0; i < 10; i++) {
    timePart = crockford[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  let random = "";
  for (let i = 0; i < 16; i++) random += crockford[nextRandomByte() % 32];
  return `${prefix}_${timePart}${random}`;
}

export function sha256Hex(value: string): string {
  return hash("sha256", value, "hex"); // one-shot: no Hash object per call (keys are hashed on every request)
}

/** Masked reference shown instead of a contractor's identity. */
export function maskRef(contractorId: string): string {
  return `ctr_****${sha256Hex(contractorId).slice(0, 4)}`;
}

/** Canonical JSON (sorted keys) so equal objects hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
