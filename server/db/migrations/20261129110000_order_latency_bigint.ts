// orders.dispatch_latency_ms as bigint: the time from an order's creation to its assignment, which an order left
// waiting for weeks (live, or on a sandbox clock advanced its whole range, and again) makes longer than an integer
// of milliseconds holds; the assignment's write then failed with 22003. The other integer columns of the schema
// hold money, counts, minutes a contractor states and a request's own duration: none is a difference of business
// times. Going back keeps what fits and caps the rest at the integer's bound.
import type { Knex } from "knex";

export async function up(db: Knex): Promise<void> {
  await db.raw("alter table orders alter column dispatch_latency_ms type bigint");
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    "alter table orders alter column dispatch_latency_ms type integer using least(dispatch_latency_ms, 2147483647)::integer",
  );
}
