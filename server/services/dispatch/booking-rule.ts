// Which contractor and window an order books: rank order for a requested window or a quoted contractor, else the
// earliest arrival any match's technician can make, within the NTE first. Why: docs/decisions.md, the booking rule.
import type { ArrivalWindow } from "./arrival-windows.js";
import type { Environment } from "../shared/tenant.js";
import type { Match } from "./matching.js";
import { isOverNte } from "./nte.js";
import type { Urgency } from "./trades.js";
import type { Busy } from "./technician-time.js";

/** A technician's time and day seat picked for an order: written with it, else released; `seat` is the technician. */
export interface Booking {
  environment: Environment;
  contractorId: string;
  window: ArrivalWindow;
  seat: number;
  day: string;
  daySeat: number;
  /** When the technician is promised on site (ms), inside the window. */
  arrival: number;
  busy: Busy;
  /** The drive planned to the job, whole minutes (the placement's, kept: `busy` starts on a slot bound). */
  driveMinutes: number;
}

/** What an order asks of the ledger besides its job: a chosen window, its NTE, whether it came from a quote. */
export interface BookRequest {
  window?: ArrivalWindow;
  nteCents?: number | null;
  quoted?: boolean;
}

export interface BookedMatch {
  match: Match;
  booking: Booking;
}

/** The match's seats in its earliest window starting before `before` (ms), or null. */
export type FirstSeat = (match: Match, before: number) => Booking | null;

function firstInRank(matches: Match[], firstSeat: FirstSeat): BookedMatch | null {
  for (const match of matches) {
    const booking = firstSeat(match, Infinity);
    if (booking) return { match, booking };
  }
  return null;
}

/** The earliest arrival across the matches; a later-ranked one wins only by arriving strictly earlier. */
function earliestAcross(matches: Match[], firstSeat: FirstSeat): BookedMatch | null {
  let best: BookedMatch | null = null;
  for (const match of matches) {
    const booking = firstSeat(match, best ? best.booking.arrival : Infinity);
    if (booking && (!best || booking.arrival < best.booking.arrival)) best = { match, booking };
  }
  return best;
}

/** Whether the job keeps rank order (the customer chose the window or contractor); else the earliest arrival wins. */
export const keepsRankOrder = (_urgency: Urgency, request: BookRequest) =>
  request.window !== undefined || request.quoted === true;

/** What the booking rule decides, for creation, the dispatcher and re-offers: assign, hold at the price, or none. */
export type BookingOutcome =
  { kind: "assign"; plan: BookedMatch } | { kind: "hold"; plan: BookedMatch } | { kind: "none"; plan?: undefined };

export function bookingOutcome(picked: BookedMatch | null, nteCents: number | null | undefined): BookingOutcome {
  if (!picked) return { kind: "none" };
  return { kind: isOverNte(nteCents, picked.match.costCents) ? "hold" : "assign", plan: picked };
}

/** The booking rule; matches over the NTE are tried only when none within it has a seat (the order is then held). */
export function pickBooking(
  matches: Match[],
  urgency: Urgency,
  request: BookRequest,
  firstSeat: FirstSeat,
): BookedMatch | null {
  if (keepsRankOrder(urgency, request)) return firstInRank(matches, firstSeat);
  const over = matches.filter((match) => isOverNte(request.nteCents, match.costCents));
  const within = over.length ? matches.filter((match) => !over.includes(match)) : matches;
  return earliestAcross(within, firstSeat) ?? earliestAcross(over, firstSeat);
}
