// Keyset pages newest first by (created_at, id) with an opaque cursor: stable under inserts, unlike an offset.
import type { Knex } from "knex";
import { DomainError } from "../errors.js";

export interface KeysetRow {
  created_at: Date | string;
  id: string | number;
}

// The cursor is the last row's (created_at, id), base64url so clients treat it as opaque.
const encodeCursor = (row: KeysetRow) =>
  Buffer.from(`${new Date(row.created_at).toISOString()}|${row.id}`).toString("base64url");

const foreignCursor = () =>
  new DomainError("validation", "validation_failed", '"cursor" is not a cursor this API returned.', {
    errors: [{ pointer: "/cursor", message: '"cursor" is not a cursor this API returned.' }],
  });

/** The cursor's position; 422 at /cursor unless it is one this list made (`idPattern` checks the id part). */
function decodeCursor(cursor: string, idPattern: RegExp): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  if (!id || !idPattern.test(id) || Number.isNaN(date.getTime())) throw foreignCursor();
  return { at: date, id };
}

/** Orders `query` newest first and, with a cursor, starts after its row; fetches one row more than `limit`. */
export function newestFirst<Q extends Knex.QueryBuilder>(
  query: Q,
  page: { limit: number; cursor?: string },
  idPattern = /./,
): Q {
  void query
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(page.limit + 1);
  if (page.cursor) {
    const { at, id } = decodeCursor(page.cursor, idPattern);
    void query.where((q) => {
      void q.where("created_at", "<", at).orWhere((q2) => {
        void q2.where("created_at", "=", at).where("id", "<", id);
      });
    });
  }
  return query;
}

/** Splits the `limit + 1` rows newestFirst() fetched into the page and the next page's cursor (null on the last). */
export function pageOf<R extends KeysetRow>(rows: R[], limit: number): { page: R[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
}
