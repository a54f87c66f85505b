// Which contractor and window an order books: rank order for a requested window or a quoted contractor; else an
// arrival by the order's deadline, sparing the contractors that take emergencies (the best-ranked for calm work, the
// shops too slow for urgent work first; the earliest for urgent), else the earliest arrival; within the NTE first.
// Why: docs/decisions.md, the booking rule.
import type { ArrivalWindow } from "./arrival-windows.js";
import type { Environment } from "../shared/tenant.js";
import { fulfilmentDeadlineMinutes } from "./fulfilment-deadline.js";
import { responseMinutesOf, type Match } from "./matching.js";
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
  /** `window` is the order's own, kept when it can be (a re-offer), not the customer's choice: the NTE comes first. */
  keptWindow?: boolean;
  nteCents?: number | null;
  quoted?: boolean;
  /** The order's fulfilment deadline (ms since the epoch), when known. */
  deadline?: number;
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

/** The first match in rank order whose technician arrives by `deadline`, or null. */
function firstBy(matches: Match[], firstSeat: FirstSeat, deadline: number): BookedMatch | null {
  for (const match of matches) {
    const booking = firstSeat(match, deadline);
    if (booking && booking.arrival <= deadline) return { match, booking };
  }
  return null;
}

/** The earlier of two picks; on a tie the one ranked first in `matches`, as earliestAcross breaks it. */
function earlierOf(matches: Match[], first: BookedMatch | null, second: BookedMatch | null): BookedMatch | null {
  if (!first || !second) return first ?? second;
  const [a, b] = [first.booking.arrival, second.booking.arrival];
  if (a !== b) return a < b ? first : second;
  return matches.indexOf(first.match) < matches.indexOf(second.match) ? first : second;
}

/** Whether the contractor's response lets it reach urgent work by its deadline at all. */
const canReachUrgent = (match: Match) =>
  responseMinutesOf(match.contractor, "urgent") <= fulfilmentDeadlineMinutes.urgent;

const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [
  items.filter(test),
  items.filter((item) => !test(item)),
];

/** The pick of a job with a deadline: an arrival by it from the contractors that take no emergencies first (an
 * emergency can go to no one else), then from those that do; the best-ranked such match for calm work (it loses
 * nothing by waiting inside its deadline), from the shops that could never reach urgent work first, the earliest for
 * urgent work; else the earliest arrival of all. */
function byDeadline(deadline: number, calm: boolean) {
  return (matches: Match[], firstSeat: FirstSeat): BookedMatch | null => {
    const [outfits, shops] = partition(matches, (match) => match.contractor.emergency_capable);
    if (calm) {
      const [slow, fast] = partition(shops, (match) => !canReachUrgent(match));
      return (
        firstBy(slow, firstSeat, deadline) ??
        firstBy(fast, firstSeat, deadline) ??
        firstBy(outfits, firstSeat, deadline) ??
        earliestAcross(matches, firstSeat)
      );
    }
    // urgent: each side's earliest arrival once; the earliest of all is the earlier of the two
    const shop = earliestAcross(shops, firstSeat);
    if (shop && shop.booking.arrival <= deadline) return shop;
    const outfit = earliestAcross(outfits, firstSeat);
    if (outfit && outfit.booking.arrival <= deadline) return outfit;
    return earlierOf(matches, shop, outfit);
  };
}

/** Whether the job keeps rank order: the window or contractor the customer chose, or the window a re-offer keeps.
 * Every other job goes by its deadline when it is known (byDeadline), else takes the earliest arrival. */
export const keepsRankOrder = (_urgency: Urgency, request: BookRequest) =>
  request.window !== undefined || request.quoted === true;

const isCalm = (urgency: Urgency) => urgency === "routine" || urgency === "scheduled";

/** Whether matches within the NTE come first: unless the customer chose the window or the contractor. */
const nteFirst = (request: BookRequest) => !request.quoted && (request.window === undefined || request.keptWindow);

/** The matches within the NTE first, then those over it (rank order kept within each). */
function byNte(matches: Match[], request: BookRequest): [Match[], Match[]] {
  if (!nteFirst(request)) return [matches, []];
  const [over, within] = partition(matches, (match) => isOverNte(request.nteCents, match.costCents));
  return [within, over];
}

/** What the booking rule decides, for creation, the dispatcher and re-offers, with the match whose price it is at:
 * assign the plan; hold at the price (over the NTE; `plan` is the seat picked, absent when nobody has one); or none
 * (nobody has a seat: `match` is the price the order waits at; absent when nobody serves it). */
export type BookingOutcome =
  | { kind: "assign"; match: Match; plan: BookedMatch }
  | { kind: "hold"; match: Match; plan?: BookedMatch }
  | { kind: "none"; match?: Match; plan?: undefined };

/** The outcome of a pick: the order is held when the price it books at, or waits at when nobody has a seat (the
 * first match the rule would try), is over its NTE. */
export function bookingOutcome(picked: BookedMatch | null, matches: Match[], request: BookRequest): BookingOutcome {
  const match = picked?.match ?? byNte(matches, request).flat()[0];
  if (!match) return { kind: "none" };
  if (isOverNte(request.nteCents, match.costCents)) return { kind: "hold", match, ...(picked ? { plan: picked } : {}) };
  return picked ? { kind: "assign", match, plan: picked } : { kind: "none", match };
}

/** The booking rule's pick; matches over the NTE are tried only when none within it has a seat (the order is then
 * held). */
export function pickBooking(
  matches: Match[],
  urgency: Urgency,
  request: BookRequest,
  firstSeat: FirstSeat,
): BookedMatch | null {
  const pick = keepsRankOrder(urgency, request)
    ? firstInRank
    : request.deadline !== undefined
      ? byDeadline(request.deadline, isCalm(urgency))
      : earliestAcross;
  const [within, over] = byNte(matches, request);
  return pick(within, firstSeat) ?? pick(over, firstSeat);
}
