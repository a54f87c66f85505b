// A weekday morning for tests whose sandbox walk runs on the wall clock: the technician arrives inside the booked
// window, so a walk started at an arbitrary hour may wait hours for it. Pinned here, the window under way is reachable.
import { installClock } from "../../server/services/shared/clock.js";

/** Tuesday 2026-12-01, 10:05 in Texas: the 10:00-12:00 window is under way and an urgent job reaches it. */
export const weekdayMorning = "2026-12-01T10:05:00-06:00";
/** The same Tuesday, 10:05 in Anchorage (the AK fixtures' contractors). */
export const anchorageWeekdayMorning = "2026-12-01T10:05:00-09:00";

/** Business time in this process from `at`, moving with the wall clock; returns the restore. */
export function installBusinessTime(at = weekdayMorning): () => void {
  const offset = Date.parse(at) - Date.now();
  return installClock({ now: () => Date.now() + offset });
}
