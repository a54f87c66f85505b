// Group commit: writes that arrive while a statement is in flight go out together in the next one (one statement,
// one round trip, one commit). No timer: a write starts once the event loop has handled the I/O at hand
// (setImmediate), so an idle server writes each call at once and a busy one shares a statement among the calls
// queued behind it. Written here, not taken from npm (docs/decisions.md, "Group commit of writes").

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit<T> {
  /** Resolves once `item` is committed; rejects with the error its own write met. */
  write(item: T): Promise<void>;
}

/**
 * `writeAll` must write its items in ONE statement (all or nothing). When a batch fails, each item is written
 * again on its own, so one bad item (a unique key taken, say) fails only its own call.
 */
export function createGroupCommit<T>(writeAll: (items: T[]) => Promise<void>, maxBatch = 64): GroupCommit<T> {
  const queue: Waiting<T>[] = [];
  let writing = false;
  const attempt = (items: T[]) => Promise.resolve(items).then(writeAll); // a synchronous throw becomes a rejection

  async function writeEachAlone(batch: Waiting<T>[]): Promise<void> {
    for (const waiting of batch) await attempt([waiting.item]).then(waiting.resolve, waiting.reject);
  }

  async function commit(batch: Waiting<T>[]): Promise<void> {
    try {
      await attempt(batch.map((w) => w.item));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else await writeEachAlone(batch);
      return;
    }
    for (const waiting of batch) waiting.resolve();
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      await commit(queue.splice(0, maxBatch));
    }
    writing = false;
  }

  return {
    write(item) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (writing) return;
        writing = true;
        setImmediate(() => void drain()); // after this turn's I/O: the calls parsed with this one join its batch
      });
    },
  };
}
