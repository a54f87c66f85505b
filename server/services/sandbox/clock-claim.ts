// One advance of an account's test clock at a time across instances: a claimed, renewed and released row; a
// second advance is refused with 409 clock_advancing (docs/decisions.md#the-sandbox-modules).
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";

/** How long a claim holds without being renewed: well above one stop's work, so only a stopped walk loses it. */
const staleMs = 60_000;

function advancing(account: string, since: Date | undefined) {
  const started = since ? ` (since ${since.toISOString()} by the wall clock)` : "";
  return new DomainError(
    "conflict",
    "clock_advancing",
    `Another advance of account ${account}'s sandbox clock is under way${started}; advances are not queued: retry once it has answered, from the clock as it then stands.`,
  );
}

/** Claims the account's clock for one advance (its claim id); 409 `clock_advancing` while another holds it. */
export async function claimClock(db: Db, account: string): Promise<string> {
  const claim = randomUUID();
  const taken = await db("sandbox_clock_advances")
    .insert({ account, claim, started_at: new Date(), renewed_at: new Date() })
    .onConflict("account")
    .merge(["claim", "started_at", "renewed_at"])
    .where("sandbox_clock_advances.renewed_at", "<", new Date(Date.now() - staleMs))
    .returning("claim");
  if (taken.length) return claim;
  const holder = await db("sandbox_clock_advances").where({ account }).first("started_at");
  throw advancing(account, holder ? new Date(holder.started_at) : undefined);
}

/** Renews the claim at a stop of the walk, so a long walk keeps it. */
export async function renewClaim(db: Db, account: string, claim: string): Promise<void> {
  await db("sandbox_clock_advances").where({ account, claim }).update({ renewed_at: new Date() });
}

/** Gives the claim up (the advance answered, or failed). */
export async function releaseClaim(db: Db, account: string, claim: string): Promise<void> {
  await db("sandbox_clock_advances").where({ account, claim }).delete();
}
