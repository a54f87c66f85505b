// A what-if for the matcher's booking rule, opt-in (DISPATCH_DAY_WHAT_IF=earliest-window), never the default run.
// The seat ledger books the first contractor in rank order that has any seat within the urgency's horizon, in that
// contractor's earliest window, even when a lower-ranked contractor has a seat hours earlier. This wraps the
// ledger's `book` of one order service so it takes the earliest window across all ranked matches instead (rank
// breaking ties), asking the real ledger once per match and releasing the seats it does not keep. Released claims
// linger for reads begun before the release (bookings.ts), so the what-if is, if anything, slightly pessimistic.
import type { SeatLedger } from "../../server/services/dispatch/bookings.js";

export function bookEarliestWindow(seats: SeatLedger): void {
  const book = seats.book.bind(seats);
  seats.book = (occupancy, matches, requested) => {
    let kept: ReturnType<SeatLedger["book"]> = null;
    for (const match of matches) {
      const plan = book(occupancy, [match], requested);
      if (!plan) continue;
      const earlier = !kept || plan.booking.window.start < kept.booking.window.start;
      seats.release(earlier ? kept?.booking : plan.booking);
      if (earlier) kept = plan;
    }
    return kept;
  };
}
