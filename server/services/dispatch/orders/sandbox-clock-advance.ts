// getSandboxClock and advanceSandboxClock: a sandbox account's test clock (test-clock.ts) read, frozen and moved.
//
// An advance is a walk, not a jump: the clock stops at each instant something is scheduled for the account's test
// orders up to the target (a sandbox step due SANDBOX_STEP_MS after an order's last change, an open offer's
// deadline, an unassigned order's fulfilment deadline), and at each stop runs the same work the background jobs
// run, for this account alone: the dispatcher's sweep (offers expired and re-offered, assignments, escalations) and
// the walker's steps. So the events come in the order and with the timestamps the wall clock would have given
// them, and the answer comes once they are written: a CI job reads the outcome right after the call. The
// background passes leave a frozen sandbox's time-driven work to its advances (test-clock.ts `scopeOf`), and two
// advances of one account at once (two instances) take each step once (the steps' row locks and 409s, as between
// instances). An advance first runs what is due at the clock's current instant (a walk an instance stopped midway),
// the clock only moves forward (freezeAt keeps the later instant), and a walk stops at most `maxStops` times, a
// bound on the work one request does; past it the clock jumps to the target and what is due there runs once.
import type { Config } from "../../../config.js";
import type { Db } from "../../../db/knex.js";
import type { Tenant } from "../../access/principal.js";
import { DomainError } from "../../errors.js";
import type { Schemas } from "../../../types/contract.js";
import { fulfilmentDeadlineMinutes } from "../fulfilment-deadline.js";
import { urgencies } from "../trades.js";
import { liveKey } from "./errors.js";
import { heldOverNte } from "./nte-rule.js";
import { durationMs } from "./sandbox-duration.js";
import { advancingStatuses } from "./state.js";
import { freezeAt, frozenAt, testTimeOf } from "./test-clock.js";
import { nowDate } from "../../shared/clock.js";

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
/** Walker passes at one instant: each steps up to 50 orders, and a stepped order is not due again at that instant. */
const maxPassesPerStop = 100;

const refusal = () => liveKey("Only a dispatch_test_ key has a sandbox clock; live orders follow the wall clock.");

const earliest = (dates: (Date | null)[]): Date | null =>
  dates.reduce<Date | null>((min, date) => (date && (!min || date < min) ? date : min), null);

const plus = (value: Date | string | null | undefined, ms: number) =>
  value ? new Date(new Date(value).getTime() + ms) : null;

/** The earliest instant after `after` (any, when null) something is scheduled for the account's test orders;
 * null when nothing is. What was due by `after` and did not move (a step another instance refused) is not
 * scheduled again: a walk never stops twice at one instant. */
async function nextScheduledAt(db: Db, config: Config, account: string, after: Date | null): Promise<Date | null> {
  const tenant = { account, environment: "test" as const };
  const since = (ms: number) => (after ? new Date(after.getTime() - ms) : new Date(0));
  const walking = advancingStatuses.filter((status) => status !== "accepted_pending_fulfilment");
  const step =
    config.sandboxStepMs > 0
      ? await db("orders")
          .where(tenant)
          .whereIn("status", walking)
          .whereNot(heldOverNte)
          .where("updated_at", ">", since(config.sandboxStepMs))
          .first<{ at: Date | null }>(db.raw("min(updated_at) as at"))
      : undefined;
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
  return earliest([plus(step?.at, config.sandboxStepMs), plus(offer?.at, 0), ...waiting]);
}

/** Everything due at the clock's current instant, for the account: the sweep, then the walker's steps. */
async function runDue(work: ClockWork, account: string): Promise<number> {
  let changes = await work.sweep(account);
  if (work.config.sandboxStepMs <= 0) return changes;
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

/** The instant an advance ends at: `by` after `from`, or the next scheduled instant (409 when none). */
async function targetOf(work: ClockWork, account: string, from: Date, request: SandboxClockAdvance): Promise<Date> {
  if (request.by !== undefined && request.to !== undefined)
    throw new DomainError("validation", "validation_failed", "Give either by or to, not both.", {
      errors: [{ pointer: "/to", message: "must not be given with by" }],
    });
  if (request.by !== undefined) return new Date(from.getTime() + durationMs(request.by));
  const next = await nextScheduledAt(work.db, work.config, account, from);
  if (!next)
    throw new DomainError(
      "conflict",
      "no_scheduled_step",
      `Nothing is scheduled for the sandbox of account ${account}; advance it by a duration instead.`,
    );
  return next;
}

/** Freezes the account's clock at `at` (or keeps a later instant) and says so to the request clocks' cache. */
async function moveClock(work: ClockWork, account: string, at: Date): Promise<void> {
  await freezeAt(work.db, account, at);
  work.clockMoved();
}

/** advanceSandboxClock: freezes the account's test clock and walks it to the target; 403 for live keys. */
export async function advanceSandboxClock(
  work: ClockWork,
  tenant: Tenant,
  request: SandboxClockAdvance,
): Promise<SandboxClockView> {
  if (tenant.environment !== "test") throw refusal();
  const { db } = work;
  const { account } = tenant;
  const from = await testTimeOf(db, account);
  const target = await targetOf(work, account, from, request);
  await moveClock(work, account, from);
  let changes = await runDue(work, account);
  let at = from;
  for (let stop = 0; stop < maxStops; stop++) {
    const next = await nextScheduledAt(db, work.config, account, at);
    if (!next || next > target) break;
    at = next;
    await moveClock(work, account, at);
    changes += await runDue(work, account);
  }
  if (at < target) {
    await moveClock(work, account, target);
    changes += await runDue(work, account);
  }
  return { ...(await viewOf(work, account)), advance: { from: from.toISOString(), changes } };
}
