// listJobWindows: the windows a held job can move to, computed as a quote computes them (the ledger's openWindows),
// for the job's own contractor and with its own technician's time and day seat counted free, as the move
// (orders/reschedule.ts) frees them.
import type { ContractorBookingRow } from "../../../db/tables/dispatch.js";
import type { ContractorCaller } from "../../access/principal.js";
import { nowDate } from "../../shared/clock.js";
import type { ResponseBody } from "../../../types/contract.js";
import { dayKey, technicianKey, type Occupancy } from "../bookings.js";
import { onSlots, type Busy } from "../technician-time.js";
import { stateTimeZone } from "../state-zones.js";
import { assertReschedulable } from "../orders/reschedule.js";
import { arrivalWindowOf } from "../orders/arrival-window.js";
import type { Answering } from "../orders/reoffer.js";
import { heldOffer, jobNotFound } from "../orders/held-job.js";
import { placeOf } from "../travel.js";

type JobWindows = ResponseBody<"listJobWindows", 200>;

/** One booking's seats, as the order moving holds them: its technician's busy interval and its day seat. */
interface HeldSeats {
  contractorId: string;
  seat: number | null;
  busy: Busy;
  day: string;
  daySeat: number;
}

/** The occupancy with one booking's seats free (a job moving frees its own): copies, as a read may be shared. */
function freeing(occupancy: Occupancy, held: HeldSeats | undefined): Occupancy {
  if (!held) return occupancy;
  const without = (map: Map<string, Set<number>>, key: string, seat: number) => {
    const seats = new Set(map.get(key));
    seats.delete(seat);
    return new Map(map).set(key, seats);
  };
  const { contractorId, seat, busy, day: localDay, daySeat } = held;
  const key = seat === null ? null : technicianKey(contractorId, seat);
  const timelines = key === null ? occupancy.timelines : new Map(occupancy.timelines);
  if (key !== null)
    timelines.set(
      key,
      (occupancy.timelines.get(key) ?? []).filter((b) => b.from !== busy.from || b.until !== busy.until),
    );
  return { ...occupancy, timelines, daySeats: without(occupancy.daySeats, dayKey(contractorId, localDay), daySeat) };
}

async function heldSeats(deps: Answering, orderId: string): Promise<HeldSeats | undefined> {
  const row = await deps
    .db("contractor_bookings")
    .where({ order_id: orderId })
    .first<ContractorBookingRow | undefined>(
      "contractor_id",
      "window_start",
      "window_end",
      "busy_from",
      "busy_until",
      "seat",
      "day_seat",
      deps.db.raw("local_day::text as local_day"),
    );
  return (
    row && {
      contractorId: row.contractor_id,
      seat: row.seat,
      busy: onSlots(
        new Date(row.busy_from ?? row.window_start).getTime(),
        new Date(row.busy_until ?? row.window_end).getTime(),
      ),
      day: row.local_day,
      daySeat: row.day_seat,
    }
  );
}

/** listJobWindows: 404 for a job the caller does not hold, 409 order_not_reschedulable once on site or finished. */
export async function listJobWindows(deps: Answering, caller: ContractorCaller, id: string): Promise<JobWindows> {
  if (!(await heldOffer(deps.db, caller, id))) throw jobNotFound(id);
  const row = await deps.db("orders").where({ id, environment: caller.environment }).first();
  if (!row) throw jobNotFound(id);
  assertReschedulable(row);
  const zone = stateTimeZone(row.state);
  const current = arrivalWindowOf(row);
  const contractor = await deps.contractors.get(row.contractor_id!);
  const { environment, urgency, trade } = row;
  const job = { environment, zone, urgency, now: nowDate().getTime(), trade, ...placeOf(row.location) };
  const occupancy = contractor
    ? freeing(await deps.seats.read([contractor], job, true), await heldSeats(deps, id))
    : null;
  const responseMinutes = row.estimated_response_minutes ?? contractor?.base_response_minutes ?? 0;
  const open = occupancy ? deps.seats.openWindows(occupancy, [{ contractor: contractor!, responseMinutes }]) : [];
  const currentStart = row.arrival_window_start ? new Date(row.arrival_window_start).getTime() : null;
  return {
    order_id: id,
    time_zone: zone,
    arrival_window: current,
    windows: open
      .filter(({ window }) => window.start !== currentStart)
      .map(({ window }) => ({ start: window.startText, end: window.endText })),
  };
}
