// The plan's part of the evals (dispatch/evals/index.ts): the promise each order was first assigned with (its ETA
// against its window, as order.assigned carried them), the re-plans its events record, and the drive each booking
// planned. Read from the events and bookings as written, never rebuilt from today's order rows.
import type { Db } from "../../../db/knex.js";
import { ofWindowOrders } from "./window-rows.js";

export interface PlanFacts {
  /** Orders with an order.assigned event. */
  assignedOrders: number;
  /** Per order whose first order.assigned carried an ETA and a window: whether the ETA lay inside it. */
  etaInWindow: boolean[];
  /** Re-assignments (order.assigned, reassigned) plus windows moved by the dispatch (order.rescheduled). */
  replans: number;
  /** The bookings with a planned drive, and their minutes summed. */
  drives: number;
  driveMinutes: number;
}

const windowEvents = (db: Db, since: Date) => ofWindowOrders(db, "order_events", since);

interface FirstAssignment {
  eta: string | null;
  start: string | null;
  end: string | null;
}

/** Each order's first order.assigned (the earliest written): the ETA and window it carried, as written. */
const firstAssignments = (db: Db, since: Date): Promise<FirstAssignment[]> =>
  windowEvents(db, since)
    .where("order_events.type", "order.assigned")
    .distinctOn("order_events.order_id")
    .orderBy([{ column: "order_events.order_id" }, { column: "order_events.id" }])
    .select(
      db.raw("order_events.data #>> '{eta,estimated_arrival_at}' as eta"),
      db.raw("order_events.data #>> '{arrival_window,start}' as start"),
      db.raw("order_events.data #>> '{arrival_window,end}' as \"end\""),
    );

/** Whether the ETA lies inside the window, start and end included; null when either is missing. */
function etaInside({ eta, start, end }: FirstAssignment): boolean | null {
  const [at, from, until] = [eta, start, end].map((text) => (text ? Date.parse(text) : NaN));
  return [at, from, until].some(Number.isNaN) ? null : from <= at && at <= until;
}

export async function planFacts(db: Db, since: Date): Promise<PlanFacts> {
  const [assignments, replans, drives] = await Promise.all([
    firstAssignments(db, since),
    windowEvents(db, since)
      .where(
        (q) =>
          void q
            .where("order_events.type", "order.assigned")
            .whereRaw("order_events.data ->> 'reassigned' = 'true'")
            .orWhere(
              (moved) =>
                void moved
                  .where("order_events.type", "order.rescheduled")
                  .whereRaw("order_events.data ->> 'rescheduled_by' = 'dispatch'"),
            ),
      )
      .count({ count: "*" }),
    ofWindowOrders(db, "contractor_bookings", since)
      .whereNotNull("contractor_bookings.drive_minutes")
      .count({ count: "*" })
      .sum({ minutes: "contractor_bookings.drive_minutes" }),
  ]);
  return {
    assignedOrders: assignments.length,
    etaInWindow: assignments.map(etaInside).filter((inside) => inside !== null),
    replans: Number(replans[0]?.count ?? 0),
    drives: Number(drives[0]?.count ?? 0),
    driveMinutes: Number(drives[0]?.minutes ?? 0),
  };
}
