// An SSE replay reads the event table one page at a time, and the next page only once the stream has taken the
// last: a client that never reads holds the server to one page, not its backlog. Pinned at the replay itself, on a
// stream nobody reads (the end-to-end RSS figure of test/faults/event-replay-memory.test.ts cannot tell this apart:
// the kernel's socket buffers take much of a loopback backlog off the server's hands).
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { replay, replayPageRows, type Subscriber } from "../../server/services/events/subscriber.js";
import { orderFeed } from "../../server/services/events/feed.js";
import { sleep, until } from "../helpers/wait.js";

const backlog = 250; // two and a half pages
const ids = (text: string) => [...text.matchAll(/^id: evt_(\d+)$/gm)].map((match) => Number(match[1]));

for (const db of databases()) {
  describe(`SSE replay pages (${db.name})`, function () {
    this.timeout(180_000);
    let t: TestServer;
    let seqs: number[] = [];
    before(async () => {
      t = await startTestServer(db, { RATE_LIMIT_POINTS: "100000" }, { inject: true });
      const { key } = await t.issueKey({ account: "pages" });
      for (let i = 0; i < backlog; i += 25)
        await Promise.all(
          Array.from({ length: Math.min(25, backlog - i) }, async (_, j) => {
            const reference_id = `page-${i + j}`; // one order each (a repeated reference_id answers the first)
            const response = await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id });
            assert.ok(response.status < 300, `order answered ${response.status}`);
          }),
        );
      await t.app.services.eventSequencer.sequenceNow();
      const rows = await t.app.services.db("order_events").where({ account: "pages" }).orderBy("seq").select("seq");
      seqs = rows.map((row) => Number(row.seq));
    });
    after(() => t?.stop());

    it(`stops after one page (${replayPageRows} events) for a stream nobody reads, then replays the rest in order`, async () => {
      // Unread, with 1 KiB buffers (the server's have Node's default, 64 KiB a side): one page overfills them.
      const stream = new PassThrough({ highWaterMark: 1024 });
      const sub: Subscriber = {
        feed: orderFeed.scoped({ account: "pages", environment: "test" }),
        base: t.url,
        keyId: "key_pages",
        stream,
        openedAt: Date.now(),
        lastWriteAt: 0,
        live: false,
        through: 0,
        release() {},
      };
      let finished = false;
      const replayed = replay(t.app.services.db, sub, () => seqs.at(-1)!).then(() => {
        finished = true;
      });
      await until(() => stream.writableNeedDrain);
      await sleep(500); // time for any read the replay should not make (an absence: no condition to wait on)
      assert.equal(finished, false, "the replay waits for the stream");
      assert.equal(sub.through, seqs[replayPageRows - 1], "one page written, no more read");

      let text = "";
      stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
      await replayed;
      assert.deepEqual(ids(text), seqs, "every event once, in feed order");
      assert.equal(sub.live, true, "handed over to live events");
    });
  });
}
