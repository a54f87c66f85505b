// Failed credentials are counted so that a guesser does not lock out the innocent behind the same address (NAT,
// a proxy): per (client address, credential) first, and per address only at a bound ten times higher.
//
// Why both: a credential that failed 20 times from an address is refused there (429, no look-up), which stops a
// misconfigured client without touching anyone else's key. That alone would let one address send an unbounded
// number of made-up keys, each a database look-up, so the address's failures are capped too, at 200 per 5 min:
// room for ten such broken clients behind one NAT. Past that cap, credentials are no longer looked up, except
// those that already authenticated from the address in the last 15 minutes (remembered in the limiter store):
// a key in use keeps working while its neighbour guesses. Keys, tokens and client ids are remembered; the admin
// token is not, because it is chosen by an operator and may be guessable, and for a remembered credential a 429
// versus a success would tell a guesser past the cap that a guess was right.
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
