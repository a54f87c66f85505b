// A batch of rows as ONE json parameter: INSERT … SELECT … FROM json_populate_recordset. Written here because
// knex's multi-row insert binds every value (columns × rows parameters) and numbering, escaping and encoding them
// cost the hot path more CPU than the statement itself; JSON.stringify of the batch is one native call.
// Each value converts as a text literal to its column's type (ISO dates to timestamptz, and so on).

/** `insert into <table> (<columns>) select <columns> from json_populate_recordset(null::<table>, ?::json)` */
export function insertJsonRows(table: string, columns: readonly string[]): string {
  const list = columns.map((c) => `"${c}"`).join(", ");
  return `insert into "${table}" (${list}) select ${list} from json_populate_recordset(null::"${table}", ?::json)`;
}
