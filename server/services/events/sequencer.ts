// The feed sequencer: numbers committed order_events rows (`evt_<seq>`) after they commit, one pass at a time across
// instances, and contractor_events (`cev_<seq>`) the same way (why: docs/decisions.md, the event feed).
import type { Knex } from "knex";
import { rawQuery } from "../../db/raw.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";

export const feedSequencerLockId = 724_313;
/** Rows per pass: bounds the pass's transaction whatever the backlog; the next pass follows at once-ish. */
const batchLimit = 1000;

/** A table the sequencer numbers, with its own lock (neither waits on the other); order_events keeps its head apart. */
export interface SequencedTable {
  table: "order_events" | "contractor_events";
  lockId: number;
  keepsHead: boolean;
}
export const orderEventsTable: SequencedTable = { table: "order_events", lockId: feedSequencerLockId, keepsHead: true };
export const contractorEventsTable: SequencedTable = {
  table: "contractor_events",
  lockId: 724_314,
  keepsHead: false,
};

/** The largest seq ever given: the head, or a row's seq above it (one numbered before the head was kept). */
function headSql({ table, keepsHead }: SequencedTable): string {
  const top = `coalesce((select max(seq) from ${table}), 0)`;
  return keepsHead ? `greatest(coalesce((select seq from event_feed_head), 0), ${top})` : top;
}

const sequenceBatch = (target: SequencedTable) => `
  update ${target.table} e
     set seq = top.seq + batch.n
    from (select id, row_number() over (order by id) as n
            from (select id from ${target.table} where seq is null order by id limit ?) pending) batch,
         (select ${headSql(target)} as seq) top
   where e.id = batch.id`;

/** The head moves with the pass that numbers, in its transaction. */
const advanceHead =
  "update event_feed_head set seq = (select max(seq) from order_events) where seq < (select max(seq) from order_events)";

/** The largest seq given so far in `target` (0 before the first). */
export async function feedHead(db: Knex | Knex.Transaction, target = orderEventsTable): Promise<number> {
  const result = await rawQuery<{ seq: string | number }>(db, `select ${headSql(target)} as seq`);
  return Number(result.rows[0]?.seq ?? 0);
}

/** One pass: rows sequenced, or null when `wait` is false and another instance is sequencing right now. */
export async function sequencePending(db: Knex, wait: boolean, target = orderEventsTable): Promise<number | null> {
  return db.transaction(async (trx) => {
    if (wait) await trx.raw("select pg_advisory_xact_lock(?)", [target.lockId]);
    else {
      const lock = await rawQuery<{ ok: boolean }>(trx, "select pg_try_advisory_xact_lock(?) as ok", [target.lockId]);
      if (!lock.rows[0]?.ok) return null;
    }
    const result = await rawQuery(trx, sequenceBatch(target), [batchLimit]);
    const numbered = result.rowCount ?? 0;
    if (numbered > 0 && target.keepsHead) await trx.raw(advanceHead);
    return numbered;
  });
}

export interface SequencerTiming {
  intervalMs: number;
  sweepMs: number;
}

/** Passes go one at a time in this process; a caller joins a pass that has not started yet. */
function createPassQueue(db: Knex, target: SequencedTable) {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting: Promise<number | null> | null = null;
  return (wait: boolean): Promise<number | null> => {
    if (waiting && wait) return waiting;
    const pass = tail.then(() => {
      if (waiting === pass) waiting = null;
      return sequencePending(db, wait, target);
    });
    if (wait) waiting = pass;
    tail = pass.catch(() => undefined);
    return pass;
  };
}

export function createFeedSequencer(db: Knex, timing: SequencerTiming, target = orderEventsTable) {
  const pass = createPassQueue(db, target);
  let job: BackgroundJob | null = null;
  return {
    /** Events were written: a pass follows within one interval (not during the request that wrote them). */
    nudge: (): void => {
      job?.nudge();
    },
    /** Sequences what is committed now (waiting for another instance's pass): read-your-writes for readers. */
    sequenceNow: async (): Promise<void> => {
      await pass(true);
    },
    start(onError: (error: unknown) => void): void {
      if (job) return;
      // Another instance holding the lock is sequencing: count it as work so this one checks again soon.
      job = startBackgroundJob(
        async () => (await pass(false)) ?? 1,
        { intervalMs: timing.intervalMs, idleMs: timing.sweepMs, firstRunMs: timing.sweepMs },
        onError,
      );
    },
    async stop(): Promise<void> {
      await job?.stop();
      job = null;
    },
  };
}

export type FeedSequencer = ReturnType<typeof createFeedSequencer>;
