// The feed sequencer: gives committed order_events rows their place in the event feed (`seq`, the number in
// `evt_<seq>`) after they commit.
//
// Why after commit: a row's own id is taken from a sequence while its statement runs, so ids reach readers out
// of order and with holes (every failed or conflicting write leaves one, and one tenant can make them at will).
// A reader that wants "never skip an event" over ids must wait at every hole not knowing whether it will fill;
// that wait stalled every stream on every instance. Here only committed rows are numbered, by one transaction
// at a time across instances (a transaction-scoped advisory lock), each continuing from the largest seq
// already given: seq has no holes and a committed seq is never followed by a smaller one, so readers read
// `seq > last` and never wait. The price is a short delay (one sequencer interval) before a row is readable,
// and an event that is read (JSON page, stream open) first runs a pass so a caller sees its own writes.
//
// Runs are nudged: the code that writes events calls `nudge`, which asks for a pass within `intervalMs`; passes
// continue while they find rows, and an idle instance only sweeps every `sweepMs` (for rows whose writer
// stopped before sequencing them) instead of opening a transaction ten times a second.
import type { Knex } from "knex";
import { rawQuery } from "../../db/raw.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";

/** pg_advisory_xact_lock key of the feed sequencer (the audit sequencer's is 724_312). */
export const feedSequencerLockId = 724_313;
/** Rows per pass: bounds the pass's transaction whatever the backlog; the next pass follows at once-ish. */
const batchLimit = 1000;

const sequenceBatch = `
  update order_events e
     set seq = top.seq + batch.n
    from (select id, row_number() over (order by id) as n
            from (select id from order_events where seq is null order by id limit ?) pending) batch,
         (select coalesce(max(seq), 0) as seq from order_events) top
   where e.id = batch.id`;

/**
 * One pass: rows sequenced, or null when `wait` is false and another instance is sequencing right now.
 * The lock is taken in its own statement first, so the update's snapshot sees the previous pass's seqs.
 */
export async function sequencePending(db: Knex, wait: boolean): Promise<number | null> {
  return db.transaction(async (trx) => {
    if (wait) await trx.raw("select pg_advisory_xact_lock(?)", [feedSequencerLockId]);
    else {
      const lock = await rawQuery<{ ok: boolean }>(trx, "select pg_try_advisory_xact_lock(?) as ok", [
        feedSequencerLockId,
      ]);
      if (!lock.rows[0]?.ok) return null;
    }
    const result = await rawQuery(trx, sequenceBatch, [batchLimit]);
    return result.rowCount ?? 0;
  });
}

export interface SequencerTiming {
  intervalMs: number;
  sweepMs: number;
}

/** Passes go one at a time in this process; a caller joins a pass that has not started yet. */
function createPassQueue(db: Knex) {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting: Promise<number | null> | null = null;
  return (wait: boolean): Promise<number | null> => {
    if (waiting && wait) return waiting;
    const pass = tail.then(() => {
      if (waiting === pass) waiting = null;
      return sequencePending(db, wait);
    });
    if (wait) waiting = pass;
    tail = pass.catch(() => undefined);
    return pass;
  };
}

export function createFeedSequencer(db: Knex, timing: SequencerTiming) {
  const pass = createPassQueue(db);
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
      // Another instance holding the lock is sequencing: count it as work so this one checks again soon. The first
      // pass is a sweep, one sweepMs after start (new events nudge a pass sooner), so start-up serves first.
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
