// One event catalogue, two delivery paths: what a callback_url receives from the server and what a
// `dispatch listen --forward-to` receiver gets must be the same bytes; `listen --print-secret` gives the secret.
// `dispatch trigger` for each type: test/cli/trigger.test.ts.
import assert from "node:assert/strict";
import type { IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import { eventTypes } from "../../cli/generated/events.js";
import { postOrder, webhookSecret } from "../fixtures/orders.js";
import { orderRequest } from "../fixtures/requests.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { runCli, startBin } from "./run-cli.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";
import { startReceiver, type Delivery, type Receiver } from "../helpers/webhook-receiver.js";
import { now } from "../../server/services/shared/clock.js";

const orderOf = (hit: Delivery) => hit.body.data.order_id;
const withoutSignature = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).filter(([name]) => !["webhook-timestamp", "webhook-signature"].includes(name)),
  );

describe("event catalogue: webhooks and listen", function () {
  this.timeout(180_000);
  let t: TestServer;
  let key: string;
  let env: Record<string, string>;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    t = await startTestServer(undefined, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "50" });
    key = (await t.issueKey({ account: "catalogue" })).key;
    env = { DISPATCH_BASE_URL: t.url, DISPATCH_API_KEY: key };
  });
  after(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  it("listen forwards byte for byte what the callback_url receives, for every type of the catalogue", async () => {
    const listen = startBin(["listen", "--forward-to", `${receiver.url}/listen`, "-o", "ndjson"], { env });
    try {
      await until(() => listen.stderr.includes("ready"));
      const callback_url = `${receiver.url}/hook`;
      const create = async (reference_id: string, extra: Record<string, unknown> = {}) => {
        const body = { ...orderRequest, reference_id, callback_url, ...extra };
        const created = await postOrder(t.url, { "x-api-key": key }, body);
        return ((await created.json()) as { order: { id: string } }).order.id;
      };
      const call = (path: string, body: unknown) =>
        jsonRequest(t.url, "POST", path, { headers: { "x-api-key": key }, body });
      // one order created, assigned, moved and cancelled; another moved to completed
      const cancelled = await create("cat-1");
      assert.equal(
        (await call(`/api/dispatch/v1/sandbox/orders/${cancelled}/advance`, { to: "dispatched" })).status,
        200,
      );
      assert.equal(
        (await call(`/api/dispatch/v1/sandbox/orders/${cancelled}/advance`, { to: "en_route" })).status,
        200,
      );
      assert.equal((await call(`/api/dispatch/v1/orders/${cancelled}/cancel`, { reason: "duplicate" })).status, 200);
      const completed = await create("cat-2");
      assert.equal(
        (await call(`/api/dispatch/v1/sandbox/orders/${completed}/advance`, { to: "completed" })).status,
        200,
      );
      // one moved to another window: the quote's latest windows first (later than the response time: an ETA of
      // source window), until one is its contractor's
      const rescheduled = await create("cat-4");
      const job = { trade: orderRequest.trade, location: { state: "TX" }, urgency: orderRequest.urgency };
      const quoted = (await (await call("/api/dispatch/v1/quote", job)).json()) as {
        arrival_windows: { start: string; end: string }[];
      };
      let moved = 0;
      for (const window of [...quoted.arrival_windows].reverse()) {
        moved = (await call(`/api/dispatch/v1/orders/${rescheduled}/reschedule`, { arrival_window: window })).status;
        if (moved === 200) break;
      }
      assert.equal(moved, 200);
      // one held over a 1-cent NTE, whose price revision the customer declines (it stays held)
      const revised = await create("cat-5", { nte_cents: 1 });
      const heldView = (await (
        await fetch(`${t.url}/api/dispatch/v1/orders/${revised}`, { headers: { "x-api-key": key } })
      ).json()) as { price_revision: { id: string } };
      const revisionPath = `/api/dispatch/v1/orders/${revised}/price-revisions/${heldView.price_revision.id}/decline`;
      assert.equal((await call(revisionPath, {})).status, 200);
      // and one nobody covers (AK roofing), unassigned past its 2 h deadline: moved back in time, then swept
      const created = await postOrder(
        t.url,
        { "x-api-key": key },
        { ...orderRequest, trade: "roofing", location: { state: "AK" }, reference_id: "cat-3", callback_url },
      );
      const escalated = ((await created.json()) as { order: { id: string } }).order.id;
      const db = t.app.services.db;
      await db("orders")
        .where({ id: escalated })
        .update({ created_at: new Date(now() - 3 * 3_600_000) });
      t.app.services.dispatcher.nudge();
      const expected = {
        // setting off (en_route), the sandbox's contractor re-estimates the ETA the assignment set
        [cancelled]: [
          "order.created",
          "order.assigned",
          "order.status_changed",
          "order.assigned",
          "order.status_changed",
          "order.eta_updated",
          "order.cancelled",
        ],
        [completed]: [
          "order.created",
          "order.assigned",
          "order.status_changed",
          "order.assigned",
          "order.status_changed",
          "order.eta_updated",
          "order.status_changed",
          "order.status_changed",
          "order.completed",
        ],
        [escalated]: ["order.created", "order.escalated"],
        [rescheduled]: ["order.created", "order.assigned", "order.rescheduled", "order.eta_updated"],
        [revised]: ["order.created", "order.price_revision_requested", "order.price_revision_resolved"],
      };
      const of = (path: string, id: string) => receiver.deliveries.filter((h) => h.path === path && orderOf(h) === id);
      const arrived = (id: string) =>
        of("/hook", id).length === expected[id].length && of("/listen", id).length === expected[id].length;
      const ids = [cancelled, completed, escalated, rescheduled, revised];
      const typesOf = (id: string) => of("/hook", id).map((h) => h.body.type);
      await until(() => ids.every(arrived), { timeoutMs: 20_000 }).catch(() => {
        // say what did arrive: a changed sequence shows at once instead of as a bare timeout
        assert.deepEqual(Object.fromEntries(ids.map((id) => [id, typesOf(id)])), expected);
      });
      const secret = await webhookSecret(t.url, "catalogue");
      for (const id of ids) {
        const [hook, forwarded] = [of("/hook", id), of("/listen", id)];
        assert.deepEqual(
          hook.map((h) => h.body.type),
          expected[id],
        );
        for (const [i, h] of hook.entries()) {
          assert.ok(h.bytes.equals(forwarded[i].bytes), `body ${String(i)}:\n${h.raw}\n${forwarded[i].raw}`);
          assert.deepEqual(withoutSignature(forwarded[i].headers), withoutSignature(h.headers));
          for (const hit of [h, forwarded[i]])
            new Webhook(secret).verify(hit.raw, hit.headers as Record<string, string>);
        }
        assert.equal(hook[0].headers["user-agent"], "dispatch-webhooks/1");
        assert.match(String(hook[0].headers["webhook-id"]), /^evt_\d+$/);
      }
      assert.deepEqual(new Set(Object.values(expected).flat()), new Set(eventTypes));
    } finally {
      await listen.stop();
    }
  });

  it("listen --print-secret prints the secret forwarded events are signed with (the account's test secret)", async () => {
    const run = await runCli(["listen", "--print-secret"], { env });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, `${await webhookSecret(t.url, "catalogue")}\n`);
    const given = await runCli(["listen", "--print-secret", "--secret", "whsec_Z2l2ZW4tc2VjcmV0LWZvci10ZXN0cw=="], {
      env,
    });
    assert.deepEqual([given.code, given.stdout], [0, "whsec_Z2l2ZW4tc2VjcmV0LWZvci10ZXN0cw==\n"]);
  });
});
