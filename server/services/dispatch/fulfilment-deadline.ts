// The fulfilment deadline: how long an order may wait for a contractor, per urgency, before escalation. The contract
// states the figures (Escalation); why they are what they are: docs/decisions.md, fulfilment deadlines.
import type { Urgency } from "./trades.js";

export const fulfilmentDeadlineMinutes: Readonly<Record<Urgency, number>> = {
  emergency: 30,
  urgent: 120,
  routine: 24 * 60,
  scheduled: 72 * 60,
};

export const fulfilmentDeadline = (urgency: Urgency, createdAt: Date): Date =>
  new Date(createdAt.getTime() + fulfilmentDeadlineMinutes[urgency] * 60_000);

/** SQL for the fulfilment deadline of `table`'s rows (its created_at and urgency), from the same figures. */
export const fulfilmentDeadlineSql = (table: string) =>
  `${table}.created_at + make_interval(mins => case ${table}.urgency ${Object.entries(fulfilmentDeadlineMinutes)
    .map(([urgency, minutes]) => `when '${urgency}' then ${minutes}`)
    .join(" ")} end)`;
