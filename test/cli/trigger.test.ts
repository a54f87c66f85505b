// `dispatch trigger` emits every type of the catalogue and prints the event's id (on a new order, with --override,
// or on an existing one with --order); `dispatch listen` without --forward-to prints the feed's events for a CI job.
import assert from "node:assert/strict";
import { eventTypes } from "../../cli/generated/events.js";
import { postOrder } from "../fixtures/orders.js";
import { orderRequest } from "../fixtures/requests.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { until } from "../helpers/wait.js";
import { runCli, startBin, startRecorder } from "./run-cli.js";

interface FeedEvent {
  id: string;
  type: string;
  data: { order_id: string; status: string };
}

describe("dispatch trigger and listen", function () {
  this.timeout(180_000);
  let t: TestServer;
  let key: string;
  let env: Record<string, string>;
  let receiver: Receiver;

  const get = async <T>(path: string, apiKey = key) =>
    (await (await fetch(`${t.url}${path}`, { headers: { "x-api-key": apiKey } })).json()) as T;
  /** Every event of the key's account (listEvents, page by page). */
  async function accountFeed(apiKey = key): Promise<FeedEvent[]> {
    const all: FeedEvent[] = [];
    for (let after = ""; ;) {
      const page = await get<{ items: FeedEvent[]; next_after: string | null }>(
        `/api/dispatch/v1/events?limit=100${after ? `&after=${after}` : ""}`,
        apiKey,
      );
      all.push(...page.items);
      if (!page.next_after || page.items.length === 0) return all;
      after = page.next_after;
    }
  }
  const orderFeed = async (id: string) =>
    (await get<{ items: FeedEvent[] }>(`/api/dispatch/v1/orders/${id}/events`)).items;
  const ordersOf = async (account: string) =>
    Number((await t.app.services.db("orders").where({ account }).count({ n: "*" }))[0].n);
  const newOrder = async (reference_id: string) => {
    const created = await postOrder(t.url, { "x-api-key": key }, { ...orderRequest, reference_id });
    return ((await created.json()) as { order: { id: string } }).order.id;
  };

  before(async () => {
    receiver = await startReceiver();
    t = await startTestServer(undefined, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "50" });
    key = (await t.issueKey({ account: "trigger" })).key;
    env = { DISPATCH_BASE_URL: t.url, DISPATCH_API_KEY: key };
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  describe("every catalogue type on a new order", () => {
    for (const type of eventTypes)
      it(`trigger ${type} prints the id of a ${type} event of the feed, delivered to the callback_url`, async () => {
        // the escalation walks its account's test clock: an account of its own keeps this one's running
        const own = type === "order.escalated" ? (await t.issueKey({ account: "trigger-clock" })).key : key;
        const args = ["trigger", type, "-o", "table", "--override", `callback_url=${receiver.url}/hook`];
        const run = await runCli(args, { env: { ...env, DISPATCH_API_KEY: own } });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /^evt_\d+\n$/);
        const id = run.stdout.trim();
        const event = (await accountFeed(own)).find((e) => e.id === id);
        assert.equal(event?.type, type);
        await until(() => receiver.deliveries.some((d) => d.headers["webhook-id"] === id));
        if (type === "order.escalated") {
          assert.match(run.stderr, /test clock is frozen now/);
          const clock = await get<{ frozen: boolean }>("/api/dispatch/v1/sandbox/clock", own);
          assert.equal(clock.frozen, true);
          // another account's clock never moves with it
          const mine = await get<{ frozen: boolean }>("/api/dispatch/v1/sandbox/clock");
          assert.equal(mine.frozen, false);
          // on a clock already frozen, the walk says nothing: the integrator froze it
          const again = await runCli(args, { env: { ...env, DISPATCH_API_KEY: own } });
          assert.deepEqual([again.code, again.stderr], [0, ""]);
          assert.notEqual(again.stdout, run.stdout);
        } else assert.equal(run.stderr, "");
      });
  });

  it("trigger order.eta_updated works on a frozen test clock (the re-estimate made at the assignment's instant)", async () => {
    const frozen = (await t.issueKey({ account: "trigger-frozen" })).key;
    const froze = await fetch(`${t.url}/api/dispatch/v1/sandbox/clock/advance`, {
      method: "POST",
      headers: { "x-api-key": frozen, "content-type": "application/json" },
      body: JSON.stringify({ by: "0s" }),
    });
    assert.equal(froze.status, 200);
    const run = await runCli(["trigger", "order.eta_updated", "-o", "table"], {
      env: { ...env, DISPATCH_API_KEY: frozen },
    });
    assert.deepEqual([run.code, run.stderr], [0, ""]);
    type EtaEvent = FeedEvent & { data: { eta?: { source: string; updated_at: string } } };
    const feed = (await accountFeed(frozen)) as EtaEvent[];
    const event = feed.find((e) => e.id === run.stdout.trim());
    assert.equal(event?.type, "order.eta_updated");
    const clock = await get<{ now: string; frozen: boolean }>("/api/dispatch/v1/sandbox/clock", frozen);
    assert.equal(clock.frozen, true);
    assert.deepEqual([event.data.eta?.source, event.data.eta?.updated_at], ["contractor", clock.now]);
  });

  it("says the account's test clock is frozen when the event does not reach the feed in time", async () => {
    // a server whose feed never gets the event: one answer for every call (the order, its empty feed, the clock)
    const recorder = await startRecorder();
    const at = "2026-11-27T10:00:00.000Z";
    recorder.answer = {
      status: 200,
      body: { id: "ord_01JD8XZZZZZZZZZZZZZZZZZZZZ", status: "pending_dispatch", items: [], now: at, frozen: true },
    };
    try {
      const run = await runCli(["trigger", "order.status_changed", "--order", "ord_01JD8XZZZZZZZZZZZZZZZZZZZZ"], {
        env: { DISPATCH_BASE_URL: recorder.url, DISPATCH_API_KEY: key },
      });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /no order\.status_changed event in the feed after 10000 ms/);
      assert.match(run.stderr, new RegExp(`test clock is frozen at ${at}.*'dispatch sandbox clock advance'`));
    } finally {
      await recorder.stop();
    }
  });

  it("-o json prints the order and the event, the event being the order's", async () => {
    const run = await runCli(["trigger", "order.completed", "-o", "json"], { env });
    assert.equal(run.code, 0, run.stderr);
    const { order, event } = JSON.parse(run.stdout) as { order: { id: string; status: string }; event: FeedEvent };
    assert.deepEqual([order.status, event.type, event.data.order_id], ["completed", "order.completed", order.id]);
  });

  describe("--order", () => {
    it("drives an existing order from its status, each time to a new event", async () => {
      const id = await newOrder("trigger-existing");
      const first = await runCli(["trigger", "order.status_changed", "--order", id, "-o", "table"], { env });
      assert.equal(first.code, 0, first.stderr);
      const second = await runCli(["trigger", "order.status_changed", "--order", id, "-o", "table"], { env });
      assert.equal(second.code, 0, second.stderr);
      const cancelled = await runCli(["trigger", "order.cancelled", "--order", id, "-o", "table"], { env });
      assert.equal(cancelled.code, 0, cancelled.stderr);
      const feed = await orderFeed(id);
      const ids = [first, second, cancelled].map((r) => r.stdout.trim());
      assert.equal(new Set(ids).size, 3);
      const typeOf = (eventId: string) => feed.find((e) => e.id === eventId)?.type;
      assert.deepEqual(ids.map(typeOf), ["order.status_changed", "order.status_changed", "order.cancelled"]);
      assert.deepEqual(
        feed.filter((e) => e.type === "order.status_changed").map((e) => e.data.status),
        ["dispatched", "en_route"],
      );
    });

    it("refuses a type its status cannot give: exit 7 (409); order.created never: exit 2; nothing moves", async () => {
      const id = await newOrder("trigger-refused");
      const created = await runCli(["trigger", "order.created", "--order", id], { env });
      assert.equal(created.code, 2, created.stderr);
      assert.match(created.stderr, /only with a new order/);
      const requested = await runCli(["trigger", "order.price_revision_requested", "--order", id], { env });
      assert.equal(requested.code, 7, requested.stderr);
      const resolved = await runCli(["trigger", "order.price_revision_resolved", "--order", id], { env });
      assert.equal(resolved.code, 7, resolved.stderr);
      assert.match(resolved.stderr, /pending price revision/);
      const escalated = await runCli(["trigger", "order.escalated", "--order", id], { env });
      assert.equal(escalated.code, 7, escalated.stderr);
      assert.match(escalated.stderr, /unassigned order/);
      assert.equal((await get<{ frozen: boolean }>("/api/dispatch/v1/sandbox/clock")).frozen, false);
      const before = (await orderFeed(id)).length;
      assert.equal((await runCli(["trigger", "order.cancelled", "--order", id], { env })).code, 0);
      const ended = await runCli(["trigger", "order.cancelled", "--order", id], { env });
      assert.equal(ended.code, 7, ended.stderr);
      assert.match(ended.stderr, /\(cancelled\): an ended order emits no more events/);
      assert.equal((await orderFeed(id)).length, before + 1); // the one cancellation
    });

    it("is refused with --override or --data (exit 2), and another account's order is not found (exit 6)", async () => {
      const id = await newOrder("trigger-mixed");
      const mixed = await runCli(["trigger", "order.cancelled", "--order", id, "--override", "urgency=urgent"], {
        env,
      });
      assert.equal(mixed.code, 2, mixed.stderr);
      assert.match(mixed.stderr, /--order drives an existing order/);
      const other = (await t.issueKey({ account: "trigger-other" })).key;
      const foreign = await runCli(["trigger", "order.cancelled", "--order", id], {
        env: { ...env, DISPATCH_API_KEY: other },
      });
      assert.equal(foreign.code, 6, foreign.stderr);
      assert.equal((await get<{ status: string }>(`/api/dispatch/v1/orders/${id}`)).status, "pending_dispatch");
    });
  });

  describe("--override", () => {
    it("sets fields of the new order by path, each read as the contract types it", async () => {
      const overrides = [
        "location.state=CA",
        "location.zip=95814",
        "location.city=Sacramento",
        "urgency=urgent",
        "nte_cents=900000",
        "reference_id=trigger-override",
      ];
      const run = await runCli(
        ["trigger", "order.created", "-o", "json", ...overrides.flatMap((o) => ["--override", o])],
        {
          env,
        },
      );
      assert.equal(run.code, 0, run.stderr);
      const { order } = JSON.parse(run.stdout) as {
        order: { location: Record<string, string>; urgency: string; nte_cents: number; reference_id: string };
      };
      assert.deepEqual(order.location, { state: "CA", zip: "95814", city: "Sacramento" });
      assert.deepEqual([order.urgency, order.nte_cents, order.reference_id], ["urgent", 900000, "trigger-override"]);
    });

    const refused: [string, RegExp][] = [
      ["nte_cents=abc", /--override nte_cents must be an integer \(got "abc"\)/],
      ["location.state=ZZ", /--override location\.state must be one of/],
      ["colour=red", /--override colour: not a field of a createOrder body/],
      ["location=TX", /--override location: not a field/],
      ["urgency", /--override must be field=value/],
      ["=x", /--override must be field=value/],
    ];
    for (const [pair, message] of refused)
      it(`--override ${pair} is a usage error (exit 2) and sends nothing`, async () => {
        const before = await ordersOf("trigger");
        const run = await runCli(["trigger", "order.created", "--override", pair], { env });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
        assert.equal(await ordersOf("trigger"), before);
      });
  });

  it("an unknown type is a usage error listing the catalogue; a live key is refused before anything is sent", async () => {
    const unknown = await runCli(["trigger", "order.shipped"], { env });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, new RegExp(eventTypes.join(", ").replace(/\./g, "\\.")));
    const live = (await t.issueKey({ account: "trigger", environment: "live" })).key;
    for (const type of eventTypes) {
      const refused = await runCli(["trigger", type], { env: { ...env, DISPATCH_API_KEY: live } });
      assert.equal(refused.code, 2, type);
      assert.match(refused.stderr, /test key/);
    }
    const count = await t.app.services.db("orders").where({ environment: "live" }).count({ n: "*" });
    assert.equal(Number(count[0].n), 0);
  });

  it("an order the pool serves cannot escalate: exit 7 once it is assigned, not a wait", async () => {
    const own = (await t.issueKey({ account: "trigger-served" })).key;
    const run = await runCli(["trigger", "order.escalated", "--override", "location.state=TX"], {
      env: { ...env, DISPATCH_API_KEY: own },
    });
    assert.equal(run.code, 7, run.stderr);
    assert.match(run.stderr, /accepted_pending_fulfilment/);
  });

  it("trigger order.assigned of an order nobody covers fails as live would (exit 7, no_contractor_in_area)", async () => {
    const args = [
      "trigger",
      "order.assigned",
      "-o",
      "json",
      "--override",
      "location.state=AK",
      "--override",
      "trade=roofing",
    ];
    const run = await runCli(args, { env });
    assert.equal(run.code, 7, run.stderr);
    assert.match(run.stderr, /no_contractor_in_area/);
  });

  it("listen without --forward-to prints, with the API key alone, each event as the feed has it (-o ndjson)", async () => {
    const listen = startBin(["listen", "-o", "ndjson"], { env });
    try {
      await until(() => listen.stderr.includes("ready"));
      const id = await newOrder("trigger-listen");
      assert.equal((await runCli(["trigger", "order.cancelled", "--order", id], { env })).code, 0);
      const feed = await orderFeed(id);
      const printed = () =>
        listen.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as FeedEvent)
          .filter((e) => e.data.order_id === id);
      await until(() => printed().length === feed.length);
      assert.deepEqual(printed(), feed);
      assert.equal(listen.child.exitCode, null, listen.stderr);
    } finally {
      await listen.stop();
    }
  });
});
