// Fault: one account's receiver accepts connections and never answers. Its deliveries must only slow itself:
// another account's first webhook still arrives within seconds (behind a flood it used to take 151 s).
import assert from "node:assert/strict";
import { createServer, type Server } from "node:net";
import type { Socket } from "node:net";
import { freePort } from "../../mocks/prism.js";
import { eventually, postOrder, startReceiver } from "../fixtures/orders.js";
import { orderRequest } from "../fixtures/requests.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** A TCP server that accepts every connection and never writes a byte (a hung receiver). */
async function startBlackhole(port: number): Promise<{ stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

describe("fault: webhook fairness", function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => {
    // The timeout is long next to the 5 s budget: without fairness, 30 hung deliveries would hold every slot.
    t = await startTestServer(undefined, {
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_POLL_MS: "50",
      WEBHOOK_TIMEOUT_MS: "4000",
      WEBHOOK_BACKOFF_MS: "1000",
    });
  });
  after(() => t?.stop());

  it("delivers account B's first webhook in under 5 s while account A's 30 callbacks hang", async () => {
    const hungPort = await freePort();
    const hung = await startBlackhole(hungPort);
    const goodPort = await freePort();
    const receiver = await startReceiver(goodPort);
    try {
      const a = (await t.issueKey({ account: "tenant-a" })).key;
      const b = (await t.issueKey({ account: "tenant-b" })).key;
      for (let i = 0; i < 30; i++) {
        // A different path per order: fairness must not be side-stepped by varying the URL on one host.
        const callback_url = `http://127.0.0.1:${hungPort}/hook/${i}`;
        const res = await postOrder(
          t.url,
          { "x-api-key": a },
          { ...orderRequest, reference_id: `a-${i}`, callback_url },
        );
        assert.ok(res.status < 300, `order answered ${res.status}`);
      }
      const started = Date.now();
      const callback_url = `http://127.0.0.1:${goodPort}/hooks`;
      const res = await postOrder(t.url, { "x-api-key": b }, { ...orderRequest, reference_id: "b-1", callback_url });
      assert.ok(res.status < 300, `order answered ${res.status}`);
      await eventually(() => receiver.deliveries.length >= 1, 30_000);
      const delayMs = Date.now() - started;
      console.error(`      account B's first webhook arrived after ${delayMs} ms`);
      assert.ok(delayMs < 5_000, `B's webhook took ${delayMs} ms`);
    } finally {
      await receiver.stop();
      await hung.stop();
    }
  });
});
