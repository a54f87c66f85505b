// The fulfilment deadline: how long an order may wait for a contractor before people take it over (escalation),
// per urgency, from its creation. The figures follow the ETA tiers a customer is quoted (an emergency is promised
// within the hour, so it escalates at half of it; urgent within four hours; routine the same or next business day;
// scheduled work is booked days ahead). The contract states them (Escalation); a change is a product decision.
import type { Urgency } from "./trades.js";

export const fulfilmentDeadlineMinutes: Readonly<Record<Urgency, number>> = {
  emergency: 30,
  urgent: 120,
  routine: 24 * 60,
  scheduled: 72 * 60,
};

/** When an order created at `createdAt` must have a contractor. */
export const fulfilmentDeadline = (urgency: Urgency, createdAt: Date): Date =>
  new Date(createdAt.getTime() + fulfilmentDeadlineMinutes[urgency] * 60_000);
