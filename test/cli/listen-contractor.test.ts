// `dispatch listen` with a contractor key: the customer feed refuses it (403), so listen follows the contractor's own
// feed (listContractorEvents) and prints each event exactly as the feed's page serves it; a customer key on the same
// server still gets the account's events, and a contractor key cannot forward without a --secret.
import assert from "node:assert/strict";
import { call, offeredOrder, startContractorWorld } from "../helpers/contractors.js";
import { databases, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { runBin, startBin } from "./run-cli.js";

const liveWait = { timeoutMs: 60_000, intervalMs: 100 };

describe("cli listen with a contractor key", function () {
  this.timeout(180_000);
  let world: Awaited<ReturnType<typeof startContractorWorld>>;
  let t: TestServer;
  before(async () => {
    world = await startContractorWorld(databases()[0]);
    t = world.t;
  });
  after(() => t?.stop());

  it("prints the contractor's offered and withdrawn events, byte for byte as the page has them", async () => {
    const env = { DISPATCH_API_KEY: world.firstKey, DISPATCH_BASE_URL: t.url };
    const listen = startBin(["listen", "--output", "ndjson"], { env });
    try {
      await until(() => listen.stderr.includes("ready"), { ...liveWait, message: "listen to connect" });
      assert.match(listen.stderr, /the contractor's events/);
      const { orderId } = await offeredOrder(t, world.customer, "cli-listen");
      const cancel = await call(
        t,
        "POST",
        `/api/dispatch/v1/orders/${orderId}/cancel`,
        { "x-api-key": world.customer },
        { reason: "other" },
      );
      assert.equal(cancel.status, 200);
      const lines = () => listen.stdout.split("\n").slice(0, -1);
      await until(() => lines().some((line) => line.includes('"offer.withdrawn"')), {
        ...liveWait,
        message: "the withdrawal",
      });
      const page = await call(t, "GET", "/api/dispatch/v1/contractor/events?after=cev_0&limit=200", {
        "x-api-key": world.firstKey,
      });
      const served = (page.body.items as { data: { order_id: string } }[])
        .filter((item) => item.data.order_id === orderId)
        .map((item) => JSON.stringify(item));
      assert.deepEqual(
        lines().filter((line) => line.includes(orderId)),
        served,
      );
    } finally {
      await listen.stop();
    }
  });

  it("a contractor key cannot forward without --secret (exit 2, saying why)", async () => {
    const env = { DISPATCH_API_KEY: world.firstKey, DISPATCH_BASE_URL: t.url };
    const run = await runBin(["listen", "--forward-to", "http://127.0.0.1:9/hooks"], { env });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /contractor key has none.*--secret/);
  });
});
