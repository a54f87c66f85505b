// An order's booked arrival window in its job's local time (the views' and the contractor feed's one reading of it).
import type { OrderRow } from "../../../db/tables/dispatch.js";
import type { Schemas } from "../../../types/contract.js";
import { withOffset } from "../arrival-windows.js";
import { stateTimeZone } from "../state-zones.js";

export function arrivalWindowOf(
  row: Pick<OrderRow, "state" | "arrival_window_start" | "arrival_window_end">,
): Schemas["ArrivalWindow"] | null {
  if (!row.arrival_window_start || !row.arrival_window_end) return null;
  const zone = stateTimeZone(row.state);
  const [start, end] = [row.arrival_window_start, row.arrival_window_end].map((at) => new Date(at).getTime());
  return { start: withOffset(zone, start), end: withOffset(zone, end) };
}
