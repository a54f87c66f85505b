// A read of several statements that must agree with each other (an order's row, its events and its latest price
// revision): one REPEATABLE READ, READ ONLY transaction, so every statement sees the same snapshot. Under the
// default READ COMMITTED each statement has its own snapshot, and a write committed between two of them (the
// dispatcher holding an order over its NTE: the order's quoted cost and the revision in one transaction) showed a
// revision beside the order as it was before it. A read-only snapshot takes no locks and cannot fail to serialize.
import type { Knex } from "knex";
import type { Db } from "./knex.js";

export function consistentRead<T>(db: Db, read: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", readOnly: true });
}
