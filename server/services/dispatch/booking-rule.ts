// Which contractor and window an order books (the rule bookings.ts argues): an emergency, a requested window and a
// quoted contractor go to the first match in rank order that has a seat; every other job to the earliest window any
// ranked match has free, rank breaking ties, among the matches priced within the order's NTE first. Pure: the seats
// are found by the ledger's `firstSeat`, which looks only at windows starting before the best found so far.
import type { ArrivalWindow } from "./arrival-windows.js";
import type { Booking } from "./bookings.js";
import type { Match } from "./matching.js";
import { isOverNte } from "./nte.js";
import type { Urgency } from "./trades.js";

/** What an order asks of the ledger besides its job: a window it chose, its NTE, whether its first match is the
 * contractor of the quote it was made from. */
export interface BookRequest {
  window?: ArrivalWindow;
  nteCents?: number | null;
  quoted?: boolean;
}

/** A match and the seats it would book. */
export interface BookedMatch {
  match: Match;
  booking: Booking;
}

/** The match's seats in its earliest window starting before `before` (ms), or null. */
export type FirstSeat = (match: Match, before: number) => Booking | null;

/** The first match, in rank order, with a seat. */
function firstInRank(matches: Match[], firstSeat: FirstSeat): BookedMatch | null {
  for (const match of matches) {
    const booking = firstSeat(match, Infinity);
    if (booking) return { match, booking };
  }
  return null;
}

/** The earliest seat across the matches; a later-ranked one wins only with a window starting strictly earlier. */
function earliestAcross(matches: Match[], firstSeat: FirstSeat): BookedMatch | null {
  let best: BookedMatch | null = null;
  for (const match of matches) {
    const booking = firstSeat(match, best ? best.booking.window.start : Infinity);
    if (booking) best = { match, booking };
  }
  return best;
}

/** Whether the job keeps rank order: the fastest responder for an emergency, the window or contractor chosen. */
export const keepsRankOrder = (urgency: Urgency, request: BookRequest) =>
  urgency === "emergency" || request.window !== undefined || request.quoted === true;

/** The booking rule. Matches priced over the NTE are tried only when none within it has a seat in the horizon (the
 * order is then held at that price, as the NTE rule holds it, never dispatched above it). */
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
