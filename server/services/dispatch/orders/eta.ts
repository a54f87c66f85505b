// The order's ETA: when its contractor is expected on site, when that estimate was made and who made it.
//
// Null until a contractor is assigned. Assigning one (at creation, by the dispatcher, an operator or the sandbox)
// estimates it from the match's response minutes, counted from the assignment (source `dispatch`);
// `estimated_response_minutes` keeps its meaning, the match's figure, and is not moved by later estimates. After
// that only the lifecycle's own steps re-estimate it, each a status change that carries a new time: an operator's
// event with `estimated_arrival_at` (`operator`), the sandbox's simulated contractor setting off (`en_route`,
// `sandbox`: its response minutes again, from the moment it leaves), a re-assignment (`dispatch` again). So the ETA
// changes inside the transaction of a status change, and its event, `order.eta_updated`, is one more fact of that
// change (events/catalogue.ts), written, numbered, streamed and webhooked like `order.assigned`, never a second
// path. A change that gives the same time from the same source changes nothing and emits nothing.
//
// Once the contractor is on site, or the order is completed or cancelled, the ETA is frozen: it keeps the last
// estimate, the promise the arrival is measured against (window adherence, ETA accuracy), and a step to any of
// those statuses takes no `estimated_arrival_at` (422). An assignment that books an arrival window
// later than the response time expects the contractor at the window's start instead (source `window`).
// The contractor holding the job re-estimates it too when it reports en_route (jobs/report.ts, source
// `contractor`): the same three columns, the same event (an open enum in the contract; the database's check lists
// what is written).
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { invalidField } from "./errors.js";
import type { OrderEventInput } from "./transition.js";
import { nowDate } from "../../shared/clock.js";

export type Eta = Schemas["Eta"];
export type EtaSource = Eta["source"];
/** The ETA as the order row keeps it (dates as read back, or as the new-order writer serialises them). */
export type EtaColumns = Pick<OrderRow, "eta_at" | "eta_updated_at" | "eta_source">;
/** What the ETA is read from: an order row, or the order a change leaves (its dates as written or read back). */
export interface EtaRead {
  eta_at: Date | string | null;
  eta_updated_at: Date | string | null;
  eta_source: string | null;
}

/** Steps on which the contractor is still on the way: the only ones that take a new estimate. */
const comingSteps: readonly string[] = ["pending_dispatch", "dispatched", "en_route"];
/** An estimate outside these bounds is a typo or a clock error, never a plan. */
const maxPastMs = 60 * 60_000;
const maxAheadMs = 30 * 24 * 60 * 60_000;

const pointer = "/estimated_arrival_at";
const timeOf = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null);

export const noEta: EtaColumns = { eta_at: null, eta_updated_at: null, eta_source: null };

/** The estimate an assignment makes: the match's response minutes from `now` (source `dispatch`), or the start of
 * the booked arrival window when that is later (source `window`: a job booked for Thursday morning is not expected
 * two hours after it was ordered). */
export function dispatchEta(responseMinutes: number, now: Date, windowStart?: number | null): EtaColumns {
  const responding = now.getTime() + responseMinutes * 60_000;
  const booked = windowStart != null && windowStart > responding;
  return {
    eta_at: new Date(booked ? windowStart : responding),
    eta_updated_at: now,
    eta_source: booked ? "window" : "dispatch",
  };
}

/** 422 naming `estimated_arrival_at` on a step the contractor is no longer coming on, or a time out of bounds. */
export function assertEtaInput(input: OrderEventInput, now = nowDate()): void {
  if (input.estimated_arrival_at === undefined) return;
  if (!comingSteps.includes(input.status))
    throw invalidField(
      pointer,
      `"estimated_arrival_at" applies only on a step to ${comingSteps.join(", ")} (the contractor is still on the way), not ${input.status}.`,
    );
  const at = timeOf(input.estimated_arrival_at) ?? Number.NaN;
  if (!(at >= now.getTime() - maxPastMs && at <= now.getTime() + maxAheadMs))
    throw invalidField(
      pointer,
      `"estimated_arrival_at" must lie between 1 hour before now and 30 days ahead (${new Date(now.getTime() - maxPastMs).toISOString()} to ${new Date(now.getTime() + maxAheadMs).toISOString()}).`,
    );
}

/** The columns a change writes: the time its input gives (an operator's, or the sandbox's), else the match's
 * estimate when it assigns; nothing when it makes no estimate or repeats the order's (same time, same source). */
export function etaUpdateOf(
  row: EtaColumns,
  change: { input: OrderEventInput; responseMinutes: number | null; windowStart?: number | null; now: Date },
): Partial<EtaColumns> {
  const { input, responseMinutes, windowStart, now } = change;
  let estimate: EtaColumns | null = null;
  if (input.estimated_arrival_at !== undefined)
    estimate = {
      eta_at: new Date(input.estimated_arrival_at),
      eta_updated_at: now,
      eta_source: input.eta_source ?? "operator",
    };
  else if (responseMinutes !== null) estimate = dispatchEta(responseMinutes, now, windowStart);
  if (!estimate) return {};
  const same = timeOf(row.eta_at) === estimate.eta_at!.getTime() && row.eta_source === estimate.eta_source;
  return same ? {} : estimate;
}

/** The contract's `eta` of an order (the view's, and what the event catalogue's facts are decided on), null before
 * a contractor was assigned. */
export function etaView(row: EtaRead): Eta | null {
  if (!row.eta_at || !row.eta_updated_at || !row.eta_source) return null;
  return {
    estimated_arrival_at: new Date(row.eta_at).toISOString(),
    updated_at: new Date(row.eta_updated_at).toISOString(),
    source: row.eta_source as EtaSource, // the database's check admits only the contract's values
  };
}
