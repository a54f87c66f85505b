// A batch of rows as ONE json parameter: INSERT … SELECT … FROM json_populate_recordset. Written here because
// knex's multi-row insert binds every value (columns × rows parameters) and numbering, escaping and encoding them
// cost the hot path more CPU than the statement itself; JSON.stringify of the batch is one native call.
// Each value converts to its column's type as json_populate_recordset converts it: ISO dates to timestamptz,
// numbers and booleans as such, an object to a jsonb column as that object (so pass objects, not JSON text).

/** `"a", "b", …` — columns are names from the code, never from a request. */
export const columnList = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(", ");

/** `select <columns> from json_populate_recordset(null::<table>, ?::json)`: the rows of one json parameter. */
export function selectJsonRows(table: string, columns: readonly string[]): string {
  return `select ${columnList(columns)} from json_populate_recordset(null::"${table}", ?::json)`;
}

/** `insert into <table> (<columns>) select <columns> from json_populate_recordset(null::<table>, ?::json)` */
export function insertJsonRows(table: string, columns: readonly string[]): string {
  return `insert into "${table}" (${columnList(columns)}) ${selectJsonRows(table, columns)}`;
}
