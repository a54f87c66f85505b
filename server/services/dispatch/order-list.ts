// listOrders: an account's orders newest first, filtered, keyset-paged with an opaque cursor.
import type { Db } from "../../db/knex.js";
import { DomainError } from "../errors.js";
import { statusViews } from "./order-lifecycle.js";

export interface OrderListFilter {
  status?: string[];
  trade?: string;
  reference_id?: string;
  created_after?: string | Date;
  created_before?: string | Date;
  limit: number;
  cursor?: string;
}

// The cursor is the last row's (created_at, id): stable under inserts, unlike an offset.
const encodeCursor = (createdAt: Date, id: string) =>
  Buffer.from(`${createdAt.toISOString()}|${id}`).toString("base64url");

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const date = new Date(at ?? "");
  if (!id || Number.isNaN(date.getTime()))
    throw new DomainError("validation", "validation_failed", '"cursor" is not a cursor this API returned.', {
      errors: [{ pointer: "/cursor", message: '"cursor" is not a cursor this API returned.' }],
    });
  return { at: date, id };
}

export async function listOrders(db: Db, account: string, filter: OrderListFilter, base: string) {
  const query = db("orders")
    .where({ account })
    .orderBy([
      { column: "created_at", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(filter.limit + 1);
  if (filter.status?.length) query.whereIn("status", filter.status);
  if (filter.trade) query.where({ trade: filter.trade });
  if (filter.reference_id) query.where({ reference_id: filter.reference_id });
  if (filter.created_after) query.where("created_at", ">=", new Date(filter.created_after));
  if (filter.created_before) query.where("created_at", "<", new Date(filter.created_before));
  if (filter.cursor) {
    const { at, id } = decodeCursor(filter.cursor);
    query.where((q) => {
      void q.where("created_at", "<", at).orWhere((q2) => {
        void q2.where("created_at", "=", at).where("id", "<", id);
      });
    });
  }
  const rows = await query;
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  return {
    items: await statusViews(db, page, base),
    next_cursor: rows.length > filter.limit && last ? encodeCursor(new Date(last.created_at), last.id) : null,
  };
}
