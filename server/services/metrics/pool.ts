// The knex (tarn) connection pool as it stands: connections in use, idle, and acquisitions waiting for one.
// PGlite's pool holds a single connection, so there `pending` is the queue of statements behind it.
import type { Db } from "../../db/knex.js";

export interface PoolUse {
  used: number;
  free: number;
  pending: number;
  max: number;
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

/** null before the pool exists and after it is destroyed (the database is closed). */
export function readPoolUse(db: Db): PoolUse | null {
  const pool = (db.client as { pool?: TarnPool | null }).pool;
  if (!pool) return null;
  return {
    used: pool.numUsed(),
    free: pool.numFree(),
    pending: pool.numPendingAcquires(),
    max: pool.max,
  };
}
