// rescheduleOrder: the customer moves an assigned order to another arrival window of the SAME contractor before it
// is on site. Only an assigned order has seats to move: an unassigned one has no contractor whose calendar a window
// could be checked against (the dispatcher books its window when it assigns it), so it is 409 like a finished one,
// and the customer cancels and orders again with `arrival_window`.
//
// Under the order's row lock, in one transaction: the order's booking row (contractor_bookings) is moved to the new
// window's lowest free seat, and to a free day seat when the contractor's local day changes (the same day keeps its
// seat), so the old seats are freed by the same write that takes the new ones; the order's window and ETA
// (dispatchEta: the window's start, source `window`, when later than the response time), an `order.rescheduled`
// fact (with `order.eta_updated` after it when the ETA changed), their webhooks and a `reschedule` audit record.
// Seats are read inside the transaction; a seat another writer took meanwhile fails the booking's UNIQUE indexes
// (23505) and the whole move is read and tried again, as often as creation and assignment do (seatAttempts), then
// 409 window_unavailable. Asking for the window the order already has changes nothing and answers the order as it is.
//
// One rule, two movers (Mover): the customer (rescheduleOrder, its tenant's order, answered with the order) and the
// contractor holding the job (jobs/reschedule.ts: rescheduleJob, a job of its environment it holds, else its 404,
// answered with the job). Only who may see the order, its 404, its answer and the `rescheduled_by` the event and
// the audit record carry differ; the windows, seats, ETA and 409s are this module's, whoever asks.
import type { Knex } from "knex";
import type { Db } from "../../../db/knex.js";
import type { ContractorBookingRow, OrderRow } from "../../../db/tables/dispatch.js";
import type { Tenant } from "../../access/principal.js";
import { appendAudit } from "../../audit/entries.js";
import { DomainError } from "../../errors.js";
import { writeOrderEvents } from "./event-writes.js";
import type { RequestBody, Schemas } from "../../../types/contract.js";
import { withOffset, workedWindows, type WorkedWindow } from "../arrival-windows.js";
import { bookingRow, isSeatTaken, lowestFree, seatAttempts, type Booking } from "../bookings.js";
import type { Contractor, ContractorService } from "../contractors.js";
import { stateTimeZone } from "../state-zones.js";
import { invalidField, orderNotFound } from "./errors.js";
import { dispatchEta, etaView, type EtaColumns } from "./eta.js";
import { statusView } from "./view.js";
import { requestedWindow, windowUnavailable } from "./windows.js";
import { nowDate } from "../../shared/clock.js";

export type RescheduleInput = RequestBody<"rescheduleOrder">;
type Window = Schemas["ArrivalWindow"];
type Trx = Knex.Transaction;

/** Who moves the window, and what it may see and is answered; `H` is what lets it move an order (its hold on it). */
export interface Mover<V, H> {
  by: NonNullable<Schemas["OrderEventData"]["rescheduled_by"]>;
  /** The orders it may see: its tenant's (the customer), or its environment's (a contractor, which holds some). */
  scope: Partial<Tenant> & Pick<Tenant, "environment">;
  /** Its 404 for an order it may not see or move. */
  notFound: (id: string) => DomainError;
  /** Under the row lock, before any other check: its hold on the order, or undefined when it may not move it (its
   * 404). */
  hold: (trx: Trx, row: OrderRow) => Promise<H | undefined>;
  /** Its answer: the order (or job) as the move left it, read in the move's transaction, with its hold. */
  view: (trx: Trx, row: OrderRow, hold: H) => Promise<V>;
}

/** Statuses whose contractor is assigned and not yet on site: the ones a window can still move on. */
const movable: readonly string[] = ["pending_dispatch", "dispatched", "en_route"];

function assertReschedulable(row: OrderRow): void {
  if (movable.includes(row.status) && row.contractor_id) return;
  const why =
    row.status === "accepted_pending_fulfilment"
      ? "it has no contractor yet, so no window to move (cancel it and order again with arrival_window)"
      : "its contractor is on site or the order is finished";
  throw new DomainError(
    "conflict",
    "order_not_reschedulable",
    `Order ${row.id} is ${row.status}: ${why}; only a pending_dispatch, dispatched or en_route order can be rescheduled.`,
  );
}

const windowOf = (zone: string, start: Date | null, end: Date | null): Window | null =>
  start && end
    ? { start: withOffset(zone, new Date(start).getTime()), end: withOffset(zone, new Date(end).getTime()) }
    : null;

/** Whether the request names the window the order already has (any offset naming the same instants). */
function isCurrentWindow(row: OrderRow, input: RescheduleInput): boolean {
  const { start, end } = input.arrival_window;
  if (!row.arrival_window_start || !row.arrival_window_end) return false;
  return (
    Date.parse(start) === new Date(row.arrival_window_start).getTime() &&
    Date.parse(end) === new Date(row.arrival_window_end).getTime()
  );
}

/** The contractor's seats in the worked window (its own day seat kept when the day is the same), or null when the
 * window or the day is full, as read inside the transaction. */
async function seatsFor(trx: Knex.Transaction, row: OrderRow, contractor: Contractor, worked: WorkedWindow) {
  const others: Pick<ContractorBookingRow, "order_id" | "seat" | "day_seat" | "local_day" | "window_start">[] =
    await trx("contractor_bookings")
      .where({ contractor_id: contractor.id })
      .andWhere((q) => void q.where("window_start", new Date(worked.window.start)).orWhere("local_day", worked.day))
      .select("order_id", "seat", "day_seat", trx.raw("local_day::text as local_day"), "window_start");
  const own = others.find((b) => b.order_id === row.id);
  const rest = others.filter((b) => b.order_id !== row.id);
  const inWindow = rest.filter((b) => new Date(b.window_start).getTime() === worked.window.start && b.seat !== null);
  const seat = lowestFree(new Set(inWindow.map((b) => b.seat!)), contractor.capacity.concurrent_jobs);
  const sameDay = own?.local_day === worked.day;
  const onDay = rest.filter((b) => b.local_day === worked.day).map((b) => b.day_seat);
  const daySeat = sameDay ? own.day_seat : lowestFree(new Set(onDay), contractor.capacity.jobs_per_day);
  if (seat === null || daySeat === null) return null;
  return { contractorId: contractor.id, window: worked.window, seat, day: worked.day, daySeat } satisfies Booking;
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
  const moved = windows.previous_arrival_window ? windows : { arrival_window: windows.arrival_window };
  const data = { ...moved, rescheduled_by: by };
  await writeOrderEvents(
    trx,
    row,
    [{ type: "order.rescheduled", data }, ...(eta ? [{ type: "order.eta_updated" as const, data: { eta } }] : [])],
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
function etaOfMove(row: OrderRow, windowStart: number, now: Date): EtaColumns | null {
  if (row.estimated_response_minutes === null) return null;
  const estimate = dispatchEta(row.estimated_response_minutes, now, windowStart);
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
  )!;
  const worked = workedWindows(contractor, zone, now.getTime()).find((w) => w.window.start === requested.window.start);
  const booking = worked ? await seatsFor(trx, row, contractor, worked) : null;
  if (!booking) throw requested.unavailable();
  await moveBooking(trx, id, booking);
  const eta = etaOfMove(row, booking.window.start, now);
  const update: Pick<OrderRow, "arrival_window_start" | "arrival_window_end" | "updated_at"> & Partial<EtaColumns> = {
    arrival_window_start: new Date(booking.window.start),
    arrival_window_end: new Date(booking.window.end),
    updated_at: now,
    ...eta,
  };
  await trx("orders").where({ id }).update(update);
  const updated: OrderRow = { ...row, ...update };
  const windows = {
    arrival_window: windowOf(zone, updated.arrival_window_start, updated.arrival_window_end)!,
    previous_arrival_window: windowOf(zone, row.arrival_window_start, row.arrival_window_end),
  };
  await recordMove(trx, { row, by: mover.by, windows }, eta ? etaView(updated) : null, { now, base });
  return mover.view(trx, updated, hold);
}

/** Agents' input reaches here without the REST validators: the window must at least be an object. */
function assertWindowGiven(input: RescheduleInput): void {
  const given: unknown = (input as Partial<RescheduleInput> | undefined)?.arrival_window;
  if (typeof given !== "object" || given === null)
    throw invalidField("/arrival_window", '"arrival_window" (start and end) is required.');
}

/** The mover's 404, 409 order_not_reschedulable / window_unavailable, 422 for a window off the grid; the same
 * answer when the order already has the window. */
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
      throw windowUnavailable(stateTimeZone(read.state), Date.parse(start), Date.parse(end));
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
