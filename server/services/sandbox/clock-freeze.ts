// The sandbox's writes of an account's test clock (shared/test-clock.ts reads it): its time, frozen at an instant or
// moved forward, and thawed back to the wall clock by a reset.
import { nowDate } from "../shared/clock.js";
import { frozenAt, type Reader } from "../shared/test-clock.js";

/** The account's test time: its frozen instant, else the wall clock. */
export async function testTimeOf(db: Reader, account: string): Promise<Date> {
  return (await frozenAt(db, account)) ?? nowDate();
}

/** Freezes the account's clock at `at`, or moves it there; never back. */
export async function freezeAt(db: Reader, account: string, at: Date): Promise<void> {
  await db("sandbox_clocks")
    .insert({ account, frozen_at: at, updated_at: new Date() })
    .onConflict("account")
    .merge({
      frozen_at: db.raw("greatest(sandbox_clocks.frozen_at, excluded.frozen_at)") as unknown as Date,
      updated_at: new Date(),
    });
}

/** Puts the account's sandbox back on the wall clock (resetSandbox). */
export async function thawClock(db: Reader, account: string): Promise<void> {
  await db("sandbox_clocks").where({ account }).delete();
}
