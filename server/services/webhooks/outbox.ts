// Transactional outbox of order webhooks: rows are written in the transaction of the status change and
// claimed by the delivery worker (server/services/webhooks/worker.ts). All state lives in the database.
import type { Knex } from "knex";
import { newId } from "../shared/ids.js";
import { baseUrlOf } from "../shared/base-url.js";
import { exponentialBackoffMs } from "../shared/backoff.js";
import { rawQuery } from "../../db/raw.js";
import type { WebhookOutboxRow } from "../../db/tables/webhooks.js";
import { ensureWebhookSecret } from "./secrets.js";
import type { Tenant } from "../access/principal.js";
import { eventRow, toEvent } from "../events/feed.js";

export type OutboxRow = Pick<
  WebhookOutboxRow,
  "id" | "message_id" | "order_id" | "account" | "environment" | "url" | "event_id" | "status_base_url" | "attempts"
>;

/** An order's webhook: its callback and the base URL of the event's `status_url`; the event is `event_id`. */
export interface StatusChange {
  orderId: string;
  tenant: Tenant;
  url: string;
  base: string;
}

/** The outbox row of one order event without `event_id` (`message_id` is a placeholder until the feed id). */
export function statusChangeMessage(change: StatusChange) {
  return {
    message_id: newId("msg"),
    order_id: change.orderId,
    account: change.tenant.account,
    environment: change.tenant.environment,
    url: change.url,
    status_base_url: change.base,
  };
}

/** Writes the message of the order event `eventId`; call inside the transaction that wrote the event. */
export async function enqueueStatusChange(trx: Knex.Transaction, change: StatusChange, eventId: number): Promise<void> {
  await ensureWebhookSecret(trx, change.tenant);
  await trx("webhook_outbox").insert({ ...statusChangeMessage(change), event_id: eventId });
}

/** An endpoint is its scheme and authority: varying the path or query on one host never buys more slots. */
export function endpointOf(url: string): string {
  return /^[^:]+:\/\/[^/?#]+/.exec(url)?.[0].toLowerCase() ?? url;
}

/** A lane is one tenant's endpoint: the unit of ordering, of the one-in-flight limit and of the circuit breaker. */
export interface Lane extends Tenant {
  endpoint: string;
}

export const laneOf = (row: Pick<OutboxRow, "account" | "environment" | "url">): Lane => ({
  account: row.account,
  environment: row.environment,
  endpoint: endpointOf(row.url),
});

/** What the claim must skip: lanes in flight or circuit-open, and tenants at their in-flight cap. */
export interface ClaimSkip {
  lanes: Lane[];
  tenants: Tenant[];
}

/** The event a message delivers, read by its id and rendered as the feed renders it. */
export async function eventOfMessage(db: Knex, row: OutboxRow, publicBaseUrl: string | null) {
  const event = row.event_id === null ? undefined : await eventRow(db, row.event_id);
  if (!event) throw new Error(`webhook message ${row.message_id} of order ${row.order_id} has no event`);
  return toEvent(event, baseUrlOf(publicBaseUrl, row.status_base_url));
}

const endpointSql = "lower(substring(o.url from '^[^:]+://[^/\\?#]+'))"; // \\? : a literal ?, not a knex binding

/** The claim's `not in` filters for busy lanes and tenants (their values bound in the same order). */
function skipClauses(skip: ClaimSkip): { skipLanes: string; skipTenants: string } {
  const tuples = (n: number, width: number) =>
    Array.from({ length: n }, () => `(${Array.from({ length: width }, () => "?").join(", ")})`).join(", ");
  return {
    skipLanes: skip.lanes.length
      ? `and (o.account, o.environment, ${endpointSql}) not in (${tuples(skip.lanes.length, 3)})`
      : "",
    skipTenants: skip.tenants.length ? `and (o.account, o.environment) not in (${tuples(skip.tenants.length, 2)})` : "",
  };
}

/** Claims due messages fairly (per lane its oldest, per tenant the longest-waiting lane head), leased for `leaseMs`. */
export async function claimDue(
  db: Knex,
  limit: number,
  leaseMs: number,
  skip: ClaimSkip = { lanes: [], tenants: [] },
): Promise<OutboxRow[]> {
  const { skipLanes, skipTenants } = skipClauses(skip);
  const result = await rawQuery<OutboxRow>(
    db,
    `update webhook_outbox set next_attempt_at = now() + (? * interval '1 millisecond')
     where id in (
       select id from (
         select id, next_attempt_at,
           row_number() over (partition by account, environment order by next_attempt_at, id) as nth_in_tenant
         from (
           select o.id, o.account, o.environment, o.next_attempt_at,
             row_number() over (partition by o.account, o.environment, ${endpointSql} order by o.id) as nth_in_lane
           from webhook_outbox o
           where o.status = 'pending' and o.next_attempt_at <= now() ${skipLanes} ${skipTenants}
             and not exists (select 1 from order_events e where e.order_id = o.order_id and e.seq is null)
             and not exists (select 1 from webhook_outbox p where p.order_id = o.order_id and p.status = 'pending' and p.id < o.id)
         ) lanes
         where nth_in_lane = 1
       ) heads
       where nth_in_tenant = 1 order by next_attempt_at, id limit ?)
       and status = 'pending' and next_attempt_at <= now() -- re-checked after a concurrent claim
     returning id, message_id, order_id, account, environment, url, event_id, status_base_url, attempts`,
    [
      leaseMs,
      ...skip.lanes.flatMap((l) => [l.account, l.environment, l.endpoint]),
      ...skip.tenants.flatMap((t) => [t.account, t.environment]),
      limit,
    ],
  );
  return result.rows.sort((a, b) => a.id - b.id);
}

export async function markDelivered(db: Knex, id: number, statusCode: number): Promise<void> {
  await db("webhook_outbox")
    .where({ id })
    .update({
      status: "delivered",
      delivered_at: db.fn.now(),
      last_error: null,
      last_status_code: statusCode,
      attempts: db.raw("attempts + 1"),
    });
}

/** Schedules the next attempt with exponential backoff, or gives up (`dead`) after `maxAttempts`. */
export async function markFailed(
  db: Knex,
  row: OutboxRow,
  failure: { message: string; status: number | null },
  policy: { backoffMs: number; maxAttempts: number },
): Promise<void> {
  const attempts = row.attempts + 1; // row.attempts is the count before this attempt
  const dead = attempts >= policy.maxAttempts;
  const delayMs = exponentialBackoffMs(policy.backoffMs, attempts - 1, 3_600_000);
  await db("webhook_outbox")
    .where({ id: row.id })
    .update({
      status: dead ? "dead" : "pending",
      attempts,
      last_error: failure.message.slice(0, 500),
      last_status_code: failure.status,
      next_attempt_at: db.raw("now() + (? * interval '1 millisecond')", [dead ? 0 : delayMs]),
    });
}
