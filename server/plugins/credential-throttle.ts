// Failed credentials are counted per (client address, credential) first, and per address only at a much higher
// bound, so that a guesser does not lock out the innocent behind the same address (NAT, a proxy). Past the address
// cap only credentials that recently authenticated from it are looked up (docs/decisions.md, "Failed credentials:
// per address and per credential").
import { createHash } from "node:crypto";
import type { DomainError } from "../services/errors.js";
import type { Limiters } from "./limiters.js";

export interface Presented {
  /** The client's budget key (clientBucketOf). */
  address: string;
  /** What was presented: the credential headers, or an OAuth client id. */
  credential: string;
  /** Whether a success lets this credential past the address's cap later (never for the admin token). */
  rememberable: boolean;
}

/** The limiter subject of one credential from one address: a digest, so no secret reaches the limiter store. */
const subjectOf = (p: Presented) =>
  `${p.address}|${createHash("sha256").update(p.credential).digest("base64url").slice(0, 22)}`;

/** The 429 to answer before any look-up, or null to go on; an address with no failures costs one read. */
export async function admission(limiters: Limiters, p: Presented): Promise<DomainError | null> {
  const address = await limiters.status("auth-failure-address", p.address);
  if (address.consumed === 0) return null;
  const own = await limiters.refusal("auth-failure", subjectOf(p));
  if (own || !address.refusal) return own;
  return p.rememberable && (await limiters.remembered(subjectOf(p))) ? null : address.refusal;
}

/** Charges a wrong credential to both budgets; the 429 to answer instead of 401 once either is spent. */
export async function failure(limiters: Limiters, p: Presented): Promise<DomainError | null> {
  const own = await limiters.consume("auth-failure", subjectOf(p));
  const address = await limiters.consume("auth-failure-address", p.address);
  return own.error ?? address.error ?? null;
}

/** Remembers a credential that authenticated, so the address's cap does not shut it out. */
export async function success(limiters: Limiters, p: Presented): Promise<void> {
  if (p.rememberable) await limiters.remember(subjectOf(p));
}
