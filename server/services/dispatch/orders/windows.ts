// The arrival window an order asks for: one window of the job zone's grid (else 422), bookable within the
// urgency's horizon (else 409 window_unavailable saying why).
import { DomainError } from "../../errors.js";
import {
  bookableUntilBeforeEndMs,
  gridWindowAt,
  horizonMs,
  isBookable,
  isEvenLocalHour,
  windowMs,
  withOffset,
  workedWindows,
  type ArrivalWindow,
} from "../arrival-windows.js";
import type { Calendar } from "../calendar.js";
import type { Urgency } from "../trades.js";
import { invalidField } from "./errors.js";

interface WindowRequest {
  urgency: Urgency;
  arrival_window?: { start: string; end: string };
}

/** Why a window of the grid cannot be booked, as the end of the sentence that names it. */
export const unavailableBecause = {
  full: "is full: its seats (capacity.concurrent_jobs), or those of its day (capacity.jobs_per_day), are taken",
  notWorked: "is outside the working hours of every contractor that serves this job",
  notWorkedByContractor: "is outside the working hours of the order's contractor",
  nobodyServes: "cannot be booked: no active contractor serves this job",
} as const;

/** Where a customer finds the windows it can book; a contractor's move names its own (jobs/reschedule.ts). */
export const quoteAgain = "quote again for the open windows";

/** 409: the window (named in the job's offset) cannot be booked, and why; `next`: where the open windows are. */
export const windowUnavailable = (zone: string, start: number, end: number, why: string, next = quoteAgain) =>
  new DomainError(
    "conflict",
    "window_unavailable",
    `The arrival window ${withOffset(zone, start)} to ${withOffset(zone, end)} ${why}; ${next}.`,
  );

const minutes = (ms: number) => ms / 60_000;
const spanText = (ms: number) => (ms >= 172_800_000 ? `${ms / 86_400_000} days` : `${ms / 3_600_000} hours`);

/** Why a window of the grid is not bookable at `now` for the urgency (it has passed, or starts past the horizon). */
function outOfReach(window: Pick<ArrivalWindow, "start" | "end">, urgency: Urgency, zone: string, now: number) {
  if (window.end - bookableUntilBeforeEndMs <= now)
    return `has passed (a window can be booked until ${minutes(bookableUntilBeforeEndMs)} minutes before its end)`;
  const limit = withOffset(zone, now + horizonMs[urgency]);
  const scheduled = urgency === "scheduled" ? "" : `, scheduled work up to ${spanText(horizonMs.scheduled)} ahead`;
  return `is beyond the ${urgency} horizon: ${urgency} work books windows starting in the next ${spanText(horizonMs[urgency])} (before ${limit})${scheduled}`;
}

/** Why no contractor could take a requested window: none serves the job, none works the window, or it is full. */
export function whyNoneBooks(contractors: Calendar[], window: ArrivalWindow, zone: string, now: number): string {
  if (!contractors.length) return unavailableBecause.nobodyServes;
  const works = (contractor: Calendar) =>
    workedWindows(contractor, zone, now).some((worked) => worked.window.start === window.start);
  return contractors.some(works) ? unavailableBecause.full : unavailableBecause.notWorked;
}

const instantOf = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);
/** Whether an RFC 3339 text's fraction of a second has a non-zero digit past the millisecond. */
export const finerThanMs = (text: string) => /T\d{2}:\d{2}:\d{2}\.\d{3}\d*[1-9]/.test(text);

/** The requested window of the grid and its 409, or undefined when none was asked for. */
export function requestedWindow(
  input: WindowRequest,
  zone: string,
  now: number,
  next = quoteAgain,
): { window: ArrivalWindow; unavailable: (why: string) => DomainError } | undefined {
  if (!input.arrival_window) return undefined;
  const start = instantOf(input.arrival_window.start);
  const end = instantOf(input.arrival_window.end);
  if (!Number.isFinite(start))
    throw invalidField("/arrival_window/start", '"start" must be a date-time with an offset.');
  if (!Number.isFinite(end)) throw invalidField("/arrival_window/end", '"end" must be a date-time with an offset.');
  if (!isEvenLocalHour(zone, start) || finerThanMs(input.arrival_window.start))
    throw invalidField(
      "/arrival_window/start",
      `"start" (${input.arrival_window.start}) must be an even hour on the job's local clock (${zone}).`,
    );
  if (end - start !== windowMs || finerThanMs(input.arrival_window.end))
    throw invalidField(
      "/arrival_window/end",
      `"end" (${input.arrival_window.end}) must be two hours after "start" (${input.arrival_window.start}), at ${withOffset(zone, start + windowMs)}.`,
    );
  const unavailable = (why: string) => windowUnavailable(zone, start, end, why, next);
  const window = gridWindowAt(zone, start, now);
  if (!window || !isBookable(window, input.urgency, now))
    throw unavailable(outOfReach({ start, end }, input.urgency, zone, now));
  return { window, unavailable };
}
