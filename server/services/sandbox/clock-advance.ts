// getSandboxClock and advanceSandboxClock: an account's test clock read, frozen and advanced as a walk stopping at
// each instant something is due (docs/decisions.md#the-sandbox-modules).
import type { Config } from "../../config.js";
import type { Db } from "../../db/knex.js";
import type { Tenant } from "../access/principal.js";
import { DomainError } from "../errors.js";
import type { Schemas } from "../../types/contract.js";
import { fulfilmentDeadlineMinutes } from "../dispatch/fulfilment-deadline.js";
import { urgencies } from "../dispatch/trades.js";
import { liveKey } from "../dispatch/orders/errors.js";
import { heldOverNte } from "../dispatch/orders/nte-rule.js";
import { durationMs } from "./duration.js";
import { advancingStatuses } from "../dispatch/orders/state.js";
import { frozenAt } from "../shared/test-clock.js";
import { freezeAt, testTimeOf } from "./clock-freeze.js";
import { nowDate } from "../shared/clock.js";
import { walkStepMs } from "./clock.js";
import { walkDueAt } from "./walk-due.js";
import { claimClock, releaseClaim, renewClaim } from "./clock-claim.js";

export type SandboxClockView = Schemas["SandboxClock"];
export type SandboxClockAdvance = Schemas["SandboxClockAdvanceRequest"];

/** What an advance runs at each stop, for one account's test orders. */
export interface ClockWork {
  db: Db;
  config: Config;
  /** The dispatcher's sweep of the account's test orders; what it changed. */
  sweep: (account: string) => Promise<number>;
  /** The walker's steps of the account's due test orders; how many it stepped. */
  step: (account: string) => Promise<number>;
  /** Told after each write of the clock (the request clocks' cache drops the old instant: clock-cache.ts). */
  clockMoved: () => void;
}

const maxStops = 1000;
/** Walker passes at one instant (a stepped order is not due again at that instant). */
const maxPassesPerStop = 100;

const refusal = () => liveKey("Only a dispatch_test_ key has a sandbox clock; live orders follow the wall clock.");

const earliest = (dates: (Date | null)[]): Date | null =>
  dates.reduce<Date | null>((min, date) => (date && (!min || date < min) ? date : min), null);

const plus = (value: Date | string | null | undefined, ms: number) =>
  value ? new Date(new Date(value).getTime() + ms) : null;

/** The earliest instant after `after` something is scheduled for the account's test orders (null: nothing). */
async function nextScheduledAt(db: Db, config: Config, account: string, after: Date | null): Promise<Date | null> {
  const tenant = { account, environment: "test" as const };
  const since = (ms: number) => (after ? new Date(after.getTime() - ms) : new Date(0));
  const walking = advancingStatuses.filter((status) => status !== "accepted_pending_fulfilment");
  const stepMs = walkStepMs(config);
  const due = walkDueAt(db, stepMs);
  const step = await db("orders")
    .where(tenant)
    .whereIn("status", walking)
    .whereNot(heldOverNte)
    .whereRaw("? > ?", [due, after ?? new Date(0)])
    .first<{ at: Date | null }>(db.raw("min(?) as at", [due]));
  const offer = await db("order_offers")
    .where({ ...tenant, status: "offered" })
    .where("deadline_at", ">", since(0))
    .first<{ at: Date | null }>(db.raw("min(deadline_at) as at"));
  const waiting = await Promise.all(
    urgencies.map(async (urgency) => {
      const ms = fulfilmentDeadlineMinutes[urgency] * 60_000;
      const row = await db("orders")
        .where({ ...tenant, status: "accepted_pending_fulfilment", urgency })
        .whereNull("escalated_at")
        .where("created_at", ">", since(ms))
        .first<{ at: Date | null }>(db.raw("min(created_at) as at"));
      return plus(row?.at, ms);
    }),
  );
  return earliest([plus(step?.at, 0), plus(offer?.at, 0), ...waiting]);
}

/** Everything due at the clock's current instant, for the account: the sweep, then the walker's steps. */
async function runDue(work: ClockWork, account: string): Promise<number> {
  let changes = await work.sweep(account);
  for (let pass = 0; pass < maxPassesPerStop; pass++) {
    const stepped = await work.step(account);
    changes += stepped;
    if (stepped === 0) break;
  }
  return changes;
}

async function viewOf(work: ClockWork, account: string): Promise<SandboxClockView> {
  const frozen = await frozenAt(work.db, account);
  const now = frozen ?? nowDate();
  const next = await nextScheduledAt(work.db, work.config, account, frozen);
  return {
    account,
    environment: "test",
    now: now.toISOString(),
    frozen: Boolean(frozen),
    next_step_at: next?.toISOString() ?? null,
  };
}

/** getSandboxClock: 403 for live keys. */
export async function getSandboxClock(work: ClockWork, tenant: Tenant): Promise<SandboxClockView> {
  if (tenant.environment !== "test") throw refusal();
  return viewOf(work, tenant.account);
}

/** The request's duration (ms), or null for `to` (the contract: by or to); 422 for a duration out of range. */
const durationOf = (request: SandboxClockAdvance): number | null => ("by" in request ? durationMs(request.by) : null);

/** The instant an advance ends at: `byMs` after `from`, or the next scheduled instant (409 when none). */
async function targetOf(work: ClockWork, account: string, from: Date, byMs: number | null): Promise<Date> {
  if (byMs !== null) return new Date(from.getTime() + byMs);
  const next = await nextScheduledAt(work.db, work.config, account, from);
  if (!next)
    throw new DomainError(
      "conflict",
      "no_scheduled_step",
      `Nothing is scheduled for the sandbox of account ${account}; advance it by a duration instead.`,
    );
  return next;
}

/** Freezes the account's clock at `at` (or keeps a later instant), tells the cache and renews the advance's claim. */
async function moveClock(work: ClockWork, walk: { account: string; claim: string }, at: Date): Promise<void> {
  await renewClaim(work.db, walk.account, walk.claim);
  await freezeAt(work.db, walk.account, at);
  work.clockMoved();
}

/** The walk from the clock's instant to the target, stopping at each scheduled instant; what changed. */
async function walk(work: ClockWork, claimed: { account: string; claim: string }, from: Date, target: Date) {
  const { account } = claimed;
  await moveClock(work, claimed, from);
  let changes = await runDue(work, account);
  let at = from;
  for (let stop = 0; stop < maxStops; stop++) {
    const next = await nextScheduledAt(work.db, work.config, account, at);
    if (!next || next > target) break;
    at = next;
    await moveClock(work, claimed, at);
    changes += await runDue(work, account);
  }
  if (at < target) {
    await moveClock(work, claimed, target);
    changes += await runDue(work, account);
  }
  return changes;
}

/** advanceSandboxClock: 403 for live keys, 409 `clock_advancing` while another advance of the clock walks. */
export async function advanceSandboxClock(
  work: ClockWork,
  tenant: Tenant,
  request: SandboxClockAdvance,
): Promise<SandboxClockView> {
  if (tenant.environment !== "test") throw refusal();
  const { db } = work;
  const { account } = tenant;
  const byMs = durationOf(request);
  const claim = await claimClock(db, account);
  try {
    const from = await testTimeOf(db, account);
    const target = await targetOf(work, account, from, byMs);
    const changes = await walk(work, { account, claim }, from, target);
    return { ...(await viewOf(work, account)), advance: { from: from.toISOString(), changes } };
  } finally {
    await releaseClaim(db, account, claim);
  }
}
