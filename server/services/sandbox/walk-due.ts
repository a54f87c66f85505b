// When the sandbox's walker next moves a test order: a step after its last change, but its simulated contractor
// sets off only in time to arrive at the booked window's start and is on site inside the window, so a walk stays
// inside it (docs/decisions.md, "The sandbox walks inside the booked window").
import type { Knex } from "knex";
import type { Db } from "../../db/knex.js";
import type { OrderRow } from "../../db/tables/dispatch.js";

/** The drive the simulated contractor allows for when the order kept no response minutes. */
export const defaultDriveMinutes = 30;

/** The minutes the simulated contractor drives to the job: the match's response minutes. */
export const driveMinutesOf = (row: Pick<OrderRow, "estimated_response_minutes">) =>
  row.estimated_response_minutes ?? defaultDriveMinutes;

/** SQL for each `orders` row's next walker step: `stepMs` after its last change; for a job with a booked window, not
 * before its contractor's departure (dispatched: the window's start less the drive), and on site (en_route) inside
 * the window: from its start, no later than its ETA; at its ETA when that is at or after the window's end (late). */
export const walkDueAt = (db: Db, stepMs: number): Knex.Raw =>
  db.raw(
    `case
      when orders.arrival_window_start is null then orders.updated_at + (? * interval '1 millisecond')
      when orders.status = 'dispatched' then greatest(
        orders.updated_at + (? * interval '1 millisecond'),
        orders.arrival_window_start - (coalesce(orders.estimated_response_minutes, ?) * interval '1 minute'))
      when orders.status = 'en_route' and orders.eta_at >= orders.arrival_window_end
        then greatest(orders.updated_at + (? * interval '1 millisecond'), orders.eta_at)
      when orders.status = 'en_route' then greatest(
        orders.arrival_window_start,
        least(orders.updated_at + (? * interval '1 millisecond'), orders.eta_at))
      else orders.updated_at + (? * interval '1 millisecond')
    end`,
    [stepMs, stepMs, defaultDriveMinutes, stepMs, stepMs, stepMs],
  );
