// Raw statements with typed rows. knex types a raw result as `any`; node-postgres and knex-pglite both answer
// with `{ rows, rowCount }`, and the statement's caller knows the columns its SQL selects.
import type { Knex } from "knex";

export interface RawResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

/** Runs `sql` with positional `?` bindings; `Row` names the columns it selects (or returns). */
export async function rawQuery<Row>(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly Knex.RawBinding[] = [],
): Promise<RawResult<Row>> {
  return await db.raw<RawResult<Row>>(sql, bindings);
}
