// How a typed row is written: columns the database fills (defaults, nullable columns) may be left out on insert,
// and any column may be given as SQL (now(), attempts + 1) instead of a value.
import type { Knex } from "knex";

type OrSql<Row> = { [Column in keyof Row]: Row[Column] | Knex.Raw };

/** `Row` as inserted: the `Filled` columns optional. */
export type InsertOf<Row, Filled extends keyof Row = never> = OrSql<Omit<Row, Filled> & Partial<Pick<Row, Filled>>>;

/** A table whose rows read as `Row` and are written as `Insert` (an update sets any part of an insert). */
export type TableOf<Row, Insert = InsertOf<Row>> = Knex.CompositeTableType<Row, Insert, Partial<Insert>>;
