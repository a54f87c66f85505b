// Keyset pages newest first with an opaque cursor: stable under inserts, unlike an offset. A list keys either by
// (created_at, id) or by a unique increasing position column; both share the cursor's encoding and its 422.
import type { Knex } from "knex";
import { DomainError } from "../errors.js";

export interface KeysetRow {
  created_at: Date | string;
  id: string | number;
}
interface Page {
  limit: number;
  cursor?: string;
}

const foreignCursorMessage = '"cursor" is not a cursor this API returned.';

/** The one bad-cursor error: 422 pointing at the query parameter, as the contract's Problem.errors documents. */
export const foreignCursor = () =>
  new DomainError("validation", "validation_failed", foreignCursorMessage, {
    errors: [{ pointer: "#/query/cursor", message: foreignCursorMessage }],
  });

// base64url so clients treat the cursor as opaque.
const encode = (text: string) => Buffer.from(text).toString("base64url");
const decode = (cursor: string) => Buffer.from(cursor, "base64url").toString("utf8");

/** The cursor's (created_at, id); a foreignCursor() unless it is one this list made (`idPattern` checks the id). */
function decodeRowCursor(cursor: string, idPattern: RegExp): { at: Date; id: string } {
  const [at, id] = decode(cursor).split("|");
  const date = new Date(at ?? "");
  if (!id || !idPattern.test(id) || Number.isNaN(date.getTime())) throw foreignCursor();
  return { at: date, id };
}

function decodePositionCursor(cursor: string): number {
  const match = /^p([1-9][0-9]{0,17})$/.exec(decode(cursor));
  if (!match) throw foreignCursor();
  return Number(match[1]);
}

/** Orders `query` newest first and, with a cursor, starts after its row; fetches one row more than `limit`. */
export function newestFirst<Q extends Knex.QueryBuilder>(query: Q, page: Page, idPattern = /./): Q {
  void query
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(page.limit + 1);
  if (page.cursor) {
    const { at, id } = decodeRowCursor(page.cursor, idPattern);
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
  const cursor = last ? encode(`${new Date(last.created_at).toISOString()}|${last.id}`) : null;
  return { page, next_cursor: rows.length > limit ? cursor : null };
}

/** newestFirst() for a list keyed by a unique increasing position `column`. */
export function newestByPosition<Q extends Knex.QueryBuilder>(query: Q, page: Page, column: string): Q {
  void query.orderBy(column, "desc").limit(page.limit + 1);
  if (page.cursor !== undefined) void query.where(column, "<", decodePositionCursor(page.cursor));
  return query;
}

/** pageOf() for rows newestByPosition() fetched; `positionOf` reads a row's position. */
export function pageByPosition<R>(
  rows: R[],
  limit: number,
  positionOf: (row: R) => number,
): { page: R[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encode(`p${positionOf(last)}`) : null };
}
