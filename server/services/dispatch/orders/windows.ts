// The arrival window an order asks for (createOrder's `arrival_window`): one window of the job zone's grid
// (arrival-windows.ts), else 422 naming the field; bookable now within the urgency's horizon, else 409
// window_unavailable naming it. Agents' input reaches here without the REST validators, so shapes are checked too.
import { DomainError } from "../../errors.js";
import {
  gridWindowAt,
  isBookable,
  isEvenLocalHour,
  windowMs,
  withOffset,
  type ArrivalWindow,
} from "../arrival-windows.js";
import type { Urgency } from "../trades.js";
import { invalidField } from "./errors.js";

interface WindowRequest {
  urgency: Urgency;
  arrival_window?: { start: string; end: string };
}

/** 409: the window (named in the job's offset) is full or cannot be booked now. */
export const windowUnavailable = (zone: string, start: number, end: number) =>
  new DomainError(
    "conflict",
    "window_unavailable",
    `The arrival window ${withOffset(zone, start)} to ${withOffset(zone, end)} is full or not bookable now; quote again for the open windows.`,
  );

const instantOf = (value: unknown) => (typeof value === "string" ? Date.parse(value) : Number.NaN);

/** The requested window of the grid and its 409, or undefined when none was asked for. */
export function requestedWindow(
  input: WindowRequest,
  zone: string,
  now: number,
): { window: ArrivalWindow; unavailable: () => DomainError } | undefined {
  if (!input.arrival_window) return undefined;
  const start = instantOf(input.arrival_window.start);
  const end = instantOf(input.arrival_window.end);
  if (!Number.isFinite(start))
    throw invalidField("/arrival_window/start", '"start" must be a date-time with an offset.');
  if (!Number.isFinite(end)) throw invalidField("/arrival_window/end", '"end" must be a date-time with an offset.');
  if (!isEvenLocalHour(zone, start))
    throw invalidField(
      "/arrival_window/start",
      `"start" (${input.arrival_window.start}) must be an even hour on the job's local clock (${zone}).`,
    );
  if (end - start !== windowMs)
    throw invalidField(
      "/arrival_window/end",
      `"end" (${input.arrival_window.end}) must be two hours after "start" (${withOffset(zone, start + windowMs)}).`,
    );
  const unavailable = () => windowUnavailable(zone, start, end);
  const window = gridWindowAt(zone, start, now);
  if (!window || !isBookable(window, input.urgency, now)) throw unavailable();
  return { window, unavailable };
}
