// Group commit: calls queued during a write go out together; a failed batch is retried item by item.
import assert from "node:assert/strict";
import { createGroupCommit } from "../../../server/db/group-commit.js";

/** A writer whose statements finish when the test says so, recording each batch it was given. */
function controlledWriter(fail: (items: number[]) => Error | null = () => null) {
  const batches: number[][] = [];
  const pending: (() => void)[] = [];
  const writeAll = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      pending.push(() => {
        const error = fail(items);
        if (error) reject(error);
        else resolve();
      });
    });
  const finishNext = async () => {
    while (pending.length === 0) await new Promise((r) => setImmediate(r));
    pending.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, writeAll, finishNext };
}

describe("group commit", () => {
  it("writes the calls of one event-loop turn together, and the calls that arrive meanwhile as the next batch", async () => {
    const w = controlledWriter();
    const gc = createGroupCommit(w.writeAll);
    const done = [1, 2].map((n) => gc.write(n));
    while (w.batches.length === 0) await new Promise((r) => setImmediate(r));
    done.push(...[3, 4, 5].map((n) => gc.write(n)));
    await w.finishNext();
    await w.finishNext();
    await Promise.all(done);
    assert.deepEqual(w.batches, [
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it("writes a lone call on the next turn of the event loop, with no timer", async () => {
    const w = controlledWriter();
    const gc = createGroupCommit(w.writeAll);
    const done = gc.write(7);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(w.batches, [[7]]);
    await w.finishNext();
    await done;
  });

  it("never puts more than maxBatch items in one statement", async () => {
    const w = controlledWriter();
    const gc = createGroupCommit(w.writeAll, 2);
    const done = [1, 2, 3, 4, 5].map((n) => gc.write(n));
    for (let i = 0; i < 3; i++) await w.finishNext();
    await Promise.all(done);
    assert.deepEqual(w.batches, [[1, 2], [3, 4], [5]]);
  });

  it("when a batch fails, writes each item alone so only the bad one fails", async () => {
    const w = controlledWriter((items) => (items.includes(3) ? new Error("duplicate key") : null));
    const gc = createGroupCommit(w.writeAll);
    const results = [1, 2, 3, 4].map((n) =>
      gc.write(n).then(
        () => "ok",
        (e: unknown) => (e as Error).message,
      ),
    );
    for (let i = 0; i < 5; i++) await w.finishNext(); // [1,2,3,4] fails, then [1], [2], [3], [4]
    assert.deepEqual(await Promise.all(results), ["ok", "ok", "duplicate key", "ok"]);
    assert.deepEqual(w.batches, [[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it("turns a writer that throws synchronously into a rejected call and keeps working", async () => {
    let calls = 0;
    const gc = createGroupCommit<number>((items) => {
      calls++;
      if (items.includes(1)) throw new Error("sync");
      return Promise.resolve();
    });
    await assert.rejects(gc.write(1), /sync/);
    await gc.write(2);
    assert.equal(calls, 2); // each call in its own turn, so each its own batch
  });
});
