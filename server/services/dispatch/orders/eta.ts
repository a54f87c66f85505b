// The order's ETA: when its contractor is expected on site, when and by whom estimated
// (docs/decisions.md#the-order-core-modules).
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { invalidField } from "./errors.js";
import type { OrderEventInput } from "./event-input.js";
import { comingStatuses, isComing } from "./state.js";
import { nowDate } from "../../shared/clock.js";

export type Eta = Schemas["Eta"];
export type EtaSource = Eta["source"];
/** The ETA as the order row keeps it (dates as read back, or as the new-order writer serialises them). */
export type EtaColumns = Pick<OrderRow, "eta_at" | "eta_updated_at" | "eta_source">;
/** What the ETA is read from: an order row or the order a change leaves, with its booked window (null: none). */
export interface EtaRead {
  eta_at: Date | string | null;
  eta_updated_at: Date | string | null;
  eta_source: string | null;
  arrival_window_start: Date | string | null;
  arrival_window_end: Date | string | null;
}

/** An estimate outside these bounds is a typo or a clock error, never a plan. */
const maxPastMs = 60 * 60_000;
const maxAheadMs = 30 * 24 * 60 * 60_000;

const pointer = "/estimated_arrival_at";
const timeOf = (value: Date | string | null | undefined) => (value ? new Date(value).getTime() : null);

export const noEta: EtaColumns = { eta_at: null, eta_updated_at: null, eta_source: null };

/** The estimate an assignment makes: the booking's arrival, or the match's response minutes from `now` if later. */
export function dispatchEta(responseMinutes: number, now: Date, arrival?: number | null): EtaColumns {
  const responding = now.getTime() + responseMinutes * 60_000;
  const booked = arrival != null && arrival > responding;
  return {
    eta_at: new Date(booked ? arrival : responding),
    eta_updated_at: now,
    eta_source: booked ? "window" : "dispatch",
  };
}

/** 422 naming `estimated_arrival_at` on a step the contractor is no longer coming on, or a time out of bounds. */
export function assertEtaInput(input: OrderEventInput, now = nowDate()): void {
  if (input.estimated_arrival_at === undefined) return;
  if (!isComing(input.status))
    throw invalidField(
      pointer,
      `"estimated_arrival_at" applies only on a step to ${comingStatuses.join(", ")} (the contractor is still on the way), not ${input.status}.`,
    );
  const at = timeOf(input.estimated_arrival_at) ?? Number.NaN;
  if (!(at >= now.getTime() - maxPastMs && at <= now.getTime() + maxAheadMs))
    throw invalidField(
      pointer,
      `"estimated_arrival_at" must lie between 1 hour before now and 30 days ahead (${new Date(now.getTime() - maxPastMs).toISOString()} to ${new Date(now.getTime() + maxAheadMs).toISOString()}).`,
    );
}

/** The ETA columns a change writes: its input's time, else the match's estimate; nothing when it repeats the order's. */
export function etaUpdateOf(
  row: EtaColumns,
  change: { input: OrderEventInput; responseMinutes: number | null; arrival?: number | null; now: Date },
): Partial<EtaColumns> {
  const { input, responseMinutes, arrival, now } = change;
  let estimate: EtaColumns | null = null;
  if (input.estimated_arrival_at !== undefined)
    estimate = {
      eta_at: new Date(input.estimated_arrival_at),
      eta_updated_at: now,
      eta_source: input.eta_source ?? "operator",
    };
  else if (responseMinutes !== null) estimate = dispatchEta(responseMinutes, now, arrival);
  if (!estimate) return {};
  const same = timeOf(row.eta_at) === estimate.eta_at!.getTime() && row.eta_source === estimate.eta_source;
  return same ? {} : estimate;
}

/** The one rule of `eta_outside_window`: an estimate outside the booked window [start, end); never without one. */
export function isOutsideWindow(row: EtaRead): boolean {
  const [at, start, end] = [row.eta_at, row.arrival_window_start, row.arrival_window_end].map(timeOf);
  if (at === null || start === null || end === null) return false;
  return at < start || at >= end;
}

/** The contract's `eta` of an order, null before a contractor was assigned. */
export function etaView(row: EtaRead): Eta | null {
  if (!row.eta_at || !row.eta_updated_at || !row.eta_source) return null;
  return {
    estimated_arrival_at: new Date(row.eta_at).toISOString(),
    updated_at: new Date(row.eta_updated_at).toISOString(),
    source: row.eta_source as EtaSource, // the database's check admits only the contract's values
    eta_outside_window: isOutsideWindow(row),
  };
}
