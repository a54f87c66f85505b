// The SSE poller runs on the background-job helper: a failed tick reaches the caller's logger (it used to be
// swallowed) and polling carries on; stop() ends the loop.
import assert from "node:assert/strict";
import { emptyPglite } from "../../../helpers/empty-pglite.js";
import { createEventStreams } from "../../../../server/services/events/stream.js";
import { orderFeed } from "../../../../server/services/events/feed.js";

const streamOptions = {
  pollMs: 20,
  keyCheckMs: 60_000,
  perKey: 5,
  maxMs: 60_000,
  heartbeatMs: 60_000,
  maxBufferedBytes: 65_536,
  endGraceMs: 1000,
};

describe("event streams", () => {
  describe("start()", () => {
    it("hands each failed poll to onError while a stream is opening, and keeps polling until stopped", async () => {
      const db = emptyPglite(); // no migrations: every poll fails on the missing order_events table
      await db.raw("select 1");
      const streams = createEventStreams(
        {
          db,
          sequencer: { sequenceNow: () => new Promise<void>(() => undefined) }, // holds one stream in "opening"
          revokedKeys: () => Promise.resolve(new Set<string>()),
          changes: { on: () => undefined },
        },
        streamOptions,
        orderFeed,
      );
      const errors: Error[] = [];
      streams.start((error) => errors.push(error as Error));
      const client = new AbortController();
      void streams.open({
        feed: streams.scoped({ account: "acme", environment: "test" }),
        base: "",
        keyId: "k1",
        signal: client.signal,
      });
      try {
        const deadline = Date.now() + 20_000;
        while (errors.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      } finally {
        await streams.stop();
        await db.destroy();
      }
      assert.ok(errors.length >= 3, `failed polls logged: ${String(errors.length)}`);
      assert.match(errors[0].message, /order_events/);
    });
  });
});
