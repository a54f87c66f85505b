// rescheduleOrder: the customer moves an assigned order, before it is on site, to another window of the same
// contractor, its seats, ETA, event and audit record moved in one transaction (docs/decisions.md#the-order-core-modules).
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { ContractorBookingRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { Tenant } from "../../access/principal.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { writeOrderEvents } from "./event-writes.js";
import type { RequestBody, Schemas } from "../../../types/contract.js";
import { withOffset, workedWindows, type WorkedWindow } from "../arrival-windows.js";
import { bookingRow, isSeatTaken, jobTimeOf, lowestFree, seatAttempts, type Booking } from "../bookings.js";
import { travelReady } from "../travel.js";
import { earliestArrival, onSlots, type JobTime, type Placement } from "../technician-time.js";
import type { Contractor, ContractorService } from "../contractors.js";
import { stateTimeZone } from "../state-zones.js";
import { invalidField, orderNotFound } from "./errors.js";
import { dispatchEta, etaView, type EtaColumns } from "./eta.js";
import { statusView } from "./view.js";
import { finerThanMs, requestedWindow, unavailableBecause, windowUnavailable } from "./windows.js";
import { nowDate } from "../../shared/clock.js";
import { comingStatuses, isComing } from "./state.js";

export type RescheduleInput = RequestBody<"rescheduleOrder">;
type Window = Schemas["ArrivalWindow"];
type Trx = Knex.Transaction;

/** Who moves the window, and what it may see and is answered; `H` is what lets it move an order (its hold on it). */
export interface Mover<V, H> {
  by: NonNullable<Schemas["OrderEventData"]["rescheduled_by"]>;
  /** The orders it may see: its tenant's (the customer), or its environment's (a contractor, which holds some). */
  scope: Partial<Tenant> & Pick<Tenant, "environment">;
  notFound: (id: string) => DomainError;
  /** Under the row lock, first: its hold on the order, or undefined when it may not move it (its 404). */
  hold: (trx: Trx, row: OrderRow) => Promise<H | undefined>;
  /** Its answer: the order (or job) as the move left it, read in the move's transaction, with its hold. */
  view: (trx: Trx, row: OrderRow, hold: H) => Promise<V>;
  /** Where its 409 window_unavailable sends it for the open windows (default: quote again). */
  openWindows?: (id: string) => string;
}

export function assertReschedulable(row: OrderRow): void {
  if (isComing(row.status) && row.contractor_id) return;
  const why =
    row.status === "accepted_pending_fulfilment"
      ? "it has no contractor yet, so no window to move (cancel it and order again with arrival_window)"
      : "its contractor is on site or the order is finished";
  throw new DomainError(
    "conflict",
    "order_not_reschedulable",
    `Order ${row.id} is ${row.status}: ${why}; only a ${comingStatuses.join(", ").replace(/, (?=[^,]*$)/, " or ")} order can be rescheduled.`,
  );
}

const windowOf = (zone: string, start: Date | null, end: Date | null): Window | null =>
  start && end
    ? { start: withOffset(zone, new Date(start).getTime()), end: withOffset(zone, new Date(end).getTime()) }
    : null;

/** Whether the request names the window the order already has (any offset naming the same instants). */
function isCurrentWindow(row: OrderRow, input: RescheduleInput): boolean {
  const { start, end } = input.arrival_window;
  if (!row.arrival_window_start || !row.arrival_window_end || finerThanMs(start) || finerThanMs(end)) return false;
  return (
    Date.parse(start) === new Date(row.arrival_window_start).getTime() &&
    Date.parse(end) === new Date(row.arrival_window_end).getTime()
  );
}

type OtherBooking = Pick<ContractorBookingRow, "order_id" | "seat" | "day_seat" | "local_day"> & {
  busy_from_ms: number;
  busy_until_ms: number;
};

/** The contractor's bookings on the window's local day, or busy within a day of it. */
async function bookingsAround(trx: Knex.Transaction, row: OrderRow, contractorId: string, worked: WorkedWindow) {
  const { window } = worked;
  const around = [new Date(window.start - 86_400_000), new Date(window.end + 86_400_000)];
  const others: OtherBooking[] = await trx("contractor_bookings")
    .where({ environment: row.environment, contractor_id: contractorId })
    .andWhere(
      (q) =>
        void q
          .where("local_day", worked.day)
          .orWhereRaw("coalesce(busy_until, window_end) > ? and coalesce(busy_from, window_start) < ?", around),
    )
    .select(
      "order_id",
      "seat",
      "day_seat",
      trx.raw("local_day::text as local_day"),
      trx.raw("extract(epoch from coalesce(busy_from, window_start))::float8 * 1000 as busy_from_ms"),
      trx.raw("extract(epoch from coalesce(busy_until, window_end))::float8 * 1000 as busy_until_ms"),
    );
  return others;
}

/** The technician arriving earliest in the window, after the others' jobs (bookings.ts's rule, on this read). */
function earliestTechnician(
  rest: OtherBooking[],
  contractor: Contractor,
  window: WorkedWindow["window"],
  time: JobTime,
) {
  let best: (Placement & { seat: number }) | null = null;
  for (let seat = 0; seat < contractor.capacity.concurrent_jobs; seat++) {
    const busy = rest.filter((b) => b.seat === seat).map((b) => onSlots(b.busy_from_ms, b.busy_until_ms));
    const placement = earliestArrival(busy, window, time);
    if (placement && (!best || placement.arrival < best.arrival)) best = { ...placement, seat };
  }
  return best;
}

/** The earliest technician of the contractor that can arrive in the worked window and a day seat, or null. */
async function seatsFor(
  trx: Knex.Transaction,
  row: OrderRow,
  contractor: Contractor,
  worked: WorkedWindow,
  now: number,
) {
  const others = await bookingsAround(trx, row, contractor.id, worked);
  const own = others.find((b) => b.order_id === row.id);
  const rest = others.filter((b) => b.order_id !== row.id);
  const { environment, trade } = row;
  const responseMinutes = row.estimated_response_minutes ?? contractor.base_response_minutes;
  await travelReady();
  const { zip, state, city } = row.location;
  const time = jobTimeOf({ contractor, responseMinutes }, { now, trade, zip, state, city });
  const best = earliestTechnician(rest, contractor, worked.window, time);
  const sameDay = own?.local_day === worked.day;
  const onDay = rest.filter((b) => b.local_day === worked.day).map((b) => b.day_seat);
  const daySeat = sameDay ? own.day_seat : lowestFree(new Set(onDay), contractor.capacity.jobs_per_day);
  if (best === null || daySeat === null) return null;
  const { seat, arrival, busy, driveMs } = best;
  const { window, day } = worked;
  const driveMinutes = Math.round(driveMs / 60_000);
  const booking = { environment, contractorId: contractor.id, window, seat, day, daySeat, arrival, busy, driveMinutes };
  return booking satisfies Booking;
}

/** Moves the order's booking row to the new seats (inserts one for an order booked before seats were kept). */
async function moveBooking(trx: Knex.Transaction, id: string, booking: Booking): Promise<void> {
  const row = bookingRow(id, booking);
  const moved = await trx("contractor_bookings").where({ order_id: id }).update(row);
  if (!moved) await trx("contractor_bookings").insert(row);
}

/** The events of the move (the fact, then the ETA's when it changed), their webhooks and the audit record. */
async function recordMove(
  trx: Knex.Transaction,
  move: {
    row: OrderRow;
    by: Mover<unknown, unknown>["by"];
    windows: { arrival_window: Window; previous_arrival_window: Window | null };
  },
  eta: Schemas["Eta"] | null,
  change: { now: Date; base: string },
): Promise<void> {
  const { row, by, windows } = move;
  const tenant = { account: row.account, environment: row.environment };
  const { arrival_window, previous_arrival_window } = windows;
  const data = { arrival_window, ...(previous_arrival_window ? { previous_arrival_window } : {}), rescheduled_by: by };
  await writeOrderEvents(
    trx,
    row,
    [
      { type: "order.rescheduled", data },
      ...(eta ? [{ type: "order.eta_updated" as const, data: { eta, arrival_window } }] : []),
    ],
    change,
  );
  await appendAudit(trx, {
    type: "reschedule",
    tenant,
    subject: row.id,
    content: {
      by,
      ...(by === "contractor" ? { contractor_id: row.contractor_id } : {}),
      status: row.status,
      ...windows,
      ...(eta ? { eta } : {}),
    },
  });
}

/** The new ETA columns when the move changes the estimate (same time and source: none). */
function etaOfMove(row: OrderRow, arrival: number, now: Date): EtaColumns | null {
  if (row.estimated_response_minutes === null) return null;
  const estimate = dispatchEta(row.estimated_response_minutes, now, arrival);
  const same =
    row.eta_at !== null &&
    new Date(row.eta_at).getTime() === estimate.eta_at!.getTime() &&
    row.eta_source === estimate.eta_source;
  return same ? null : estimate;
}

interface Attempt<V, H> {
  mover: Mover<V, H>;
  id: string;
  input: RescheduleInput;
  /** The order's contractor as read before the lock (null when it had none). */
  contractor: Contractor | null;
  base: string;
}

/** One attempt under the row lock; `stale` when the order changed contractor since it was read. */
async function moveOnce<V, H>(trx: Knex.Transaction, attempt: Attempt<V, H>): Promise<V | "stale"> {
  const { mover, id, input, contractor, base } = attempt;
  const row = await trx("orders")
    .where({ id, ...mover.scope })
    .forUpdate()
    .first();
  const hold = row && (await mover.hold(trx, row));
  if (!hold) throw mover.notFound(id);
  assertReschedulable(row);
  if (isCurrentWindow(row, input)) return mover.view(trx, row, hold);
  if (row.contractor_id !== contractor?.id) return "stale" as const;
  const now = nowDate();
  const zone = stateTimeZone(row.state);
  const requested = requestedWindow(
    { urgency: row.urgency, arrival_window: input.arrival_window },
    zone,
    now.getTime(),
    mover.openWindows?.(id),
  )!;
  const worked = workedWindows(contractor, zone, now.getTime()).find((w) => w.window.start === requested.window.start);
  if (!worked) throw requested.unavailable(unavailableBecause.notWorkedByContractor);
  const booking = await seatsFor(trx, row, contractor, worked, now.getTime());
  if (!booking) throw requested.unavailable(unavailableBecause.full);
  const updated = await writeMove(trx, row, booking, { by: mover.by, now, base });
  return mover.view(trx, updated, hold);
}

/** Writes a move: the booking's seats, the order's window and ETA (a customer's or contractor's move makes the window
 * theirs: re-planning leaves it alone), its events and audit record; the order as the move leaves it. */
export async function writeMove(
  trx: Knex.Transaction,
  row: OrderRow,
  booking: Booking,
  move: { by: Mover<unknown, unknown>["by"]; now: Date; base: string },
): Promise<OrderRow> {
  const { by, now, base } = move;
  await moveBooking(trx, row.id, booking);
  const zone = stateTimeZone(row.state);
  const eta = etaOfMove(row, booking.arrival, now);
  const update = {
    arrival_window_start: new Date(booking.window.start),
    arrival_window_end: new Date(booking.window.end),
    updated_at: now,
    window_fixed: row.window_fixed || by !== "dispatch",
    ...eta,
  } satisfies Partial<OrderRow>;
  await trx("orders").where({ id: row.id }).update(update);
  const updated: OrderRow = { ...row, ...update };
  const windows = {
    arrival_window: windowOf(zone, updated.arrival_window_start, updated.arrival_window_end)!,
    previous_arrival_window: windowOf(zone, row.arrival_window_start, row.arrival_window_end),
  };
  await recordMove(trx, { row: updated, by, windows }, eta ? etaView(updated) : null, { now, base });
  return updated;
}

/** Agents' input reaches here without the REST validators: the window must at least be an object. */
function assertWindowGiven(input: RescheduleInput): void {
  const given: unknown = (input as Partial<RescheduleInput> | undefined)?.arrival_window;
  if (typeof given !== "object" || given === null)
    throw invalidField("/arrival_window", '"arrival_window" (start and end) is required.');
}

/** The mover's 404, 409 order_not_reschedulable / window_unavailable, 422 for a window off the grid. */
export async function moveWindow<V, H>(
  deps: { db: Db; contractors: ContractorService },
  mover: Mover<V, H>,
  request: { id: string; input: RescheduleInput; base: string },
): Promise<V> {
  const { db, contractors } = deps;
  const { id, input, base } = request;
  assertWindowGiven(input);
  for (let attempt = 1; ; attempt++) {
    const read = await db("orders")
      .where({ id, ...mover.scope })
      .first("contractor_id", "state");
    if (!read) throw mover.notFound(id);
    // the calendar is read before the lock (the pool's reads are not the transaction's); checked again under it
    const contractor = read.contractor_id ? await contractors.get(read.contractor_id) : null;
    try {
      const view = await db.transaction((trx) => moveOnce(trx, { mover, id, input, contractor, base }));
      if (view !== "stale") return view;
    } catch (error) {
      if (!isSeatTaken(error)) throw error;
    }
    if (attempt >= seatAttempts) {
      const { start, end } = input.arrival_window;
      const zone = stateTimeZone(read.state);
      throw windowUnavailable(
        zone,
        Date.parse(start),
        Date.parse(end),
        unavailableBecause.full,
        mover.openWindows?.(id),
      );
    }
  }
}

/** rescheduleOrder: the customer moves its tenant's order (404 for another tenant's), answered with the order. */
export const rescheduleOrder = (
  deps: { db: Db; contractors: ContractorService },
  tenant: Tenant,
  request: { id: string; input: RescheduleInput; base: string },
) =>
  moveWindow(
    deps,
    {
      by: "customer",
      scope: tenant,
      notFound: orderNotFound,
      hold: (_trx, row) => Promise.resolve(row), // its tenant's order: the scope is the whole rule
      view: (trx, row) => statusView(trx, row, request.base),
    },
    request,
  );
