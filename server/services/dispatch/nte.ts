// The not-to-exceed rule, shared by quotes (how a price sits against the caller's NTE), orders (an order is never
// dispatched above its NTE) and the sandbox (a held order is never stepped).
import type { Schemas } from "../../types/contract.js";

/** A known price above a given not-to-exceed. */
export const isOverNte = (nteCents: number | null | undefined, costCents: number | null | undefined): boolean =>
  nteCents !== null && nteCents !== undefined && costCents !== null && costCents !== undefined && costCents > nteCents;

/** The NTE check of the contract: null without an NTE; `fits` is false when nothing could be priced. */
export function nteCheck(nteCents: number | undefined, costCents: number | null): Schemas["NteCheck"] {
  if (nteCents === undefined) return null;
  return {
    nte_cents: nteCents,
    fits: costCents !== null && !isOverNte(nteCents, costCents),
    headroom_cents: costCents === null ? 0 : nteCents - costCents,
  };
}
