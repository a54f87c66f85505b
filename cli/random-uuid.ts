// A random (version 4) UUID for the Idempotency-Key of an order. Read from /dev/urandom, the kernel's CSPRNG, where
// there is one: loading node:crypto (or globalThis.crypto) is a large share of a short command's CPU (measured in
// docs/decisions.md, "The CLI builds only the command that runs").
import { closeSync, openSync, readSync } from "node:fs";

function urandom(size: number): Buffer | undefined {
  const bytes = Buffer.alloc(size);
  try {
    const fd = openSync("/dev/urandom", "r");
    try {
      return readSync(fd, bytes, 0, size, null) === size ? bytes : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // no /dev/urandom (Windows)
  }
}

export function randomUuid(): string {
  const bytes = urandom(16);
  if (!bytes) return globalThis.crypto.randomUUID();
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
