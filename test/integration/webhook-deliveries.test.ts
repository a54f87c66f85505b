// listWebhookDeliveries (filters, keyset pages with Link) and redeliverWebhookDelivery, on every test database.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { freePort } from "../../mocks/prism.js";
import { createDispatchClient, paginate } from "../../sdk/index.js";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, startReceiver } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";

const akOrder = { trade: "hvac", location: { state: "AK" }, description: "No heat." }; // nobody covers it: 202

// A failed attempt waits 10 minutes for the next one, so a failing delivery stays pending until redelivered.
const env = {
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: "20",
  WEBHOOK_BACKOFF_MS: "600000",
  WEBHOOK_MAX_ATTEMPTS: "2",
};

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  order_id: string;
  state: "pending" | "delivered" | "dead";
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
}
interface Page {
  items: Delivery[];
  next_cursor: string | null;
}
type Receiver = Awaited<ReturnType<typeof startReceiver>> & { port: number };

async function receiverOn(status?: () => number): Promise<Receiver> {
  const port = await freePort();
  return { ...(await startReceiver(port, status)), port };
}

for (const db of databases()) {
  describe(`webhook deliveries (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let good: Receiver;
    let flaky: Receiver;
    let flakyStatus = 500;
    let key: string;
    let other: string;
    const ids = { x: "", y: "", z: "" };
    const hooks = (path: string, k = key, method = "GET") =>
      t.fetch(`${t.url}/api/dispatch/v1/webhooks/${path}`, { method, headers: { "x-api-key": k } });
    const list = async (query = "", k = key) => {
      const response = await hooks(`deliveries${query}`, k);
      return { status: response.status, link: response.headers.get("link"), body: (await response.json()) as Page };
    };
    const redeliver = async (id: string, k = key) => {
      const response = await hooks(`deliveries/${id}/redeliver`, k, "POST");
      return { status: response.status, body: await response.json() };
    };
    /** A matched order (two events: order.created, order.assigned), or with `unassigned` one event only. */
    const order = async (k: string, reference_id: string, receiver: Receiver, unassigned = false) => {
      const callback_url = `http://127.0.0.1:${receiver.port}/hooks`;
      const body = { ...(unassigned ? akOrder : orderRequest), reference_id, callback_url };
      const response = await postOrder(t, { "x-api-key": k }, body);
      return (await response.json()).order.id as string;
    };
    const deliveryOf = async (orderId: string, index = 0) =>
      (await list(`?order_id=${orderId}`)).body.items.at(-1 - index)!;

    before(async () => {
      t = await startTestServer(db, env, { inject: true });
      good = await receiverOn();
      flaky = await receiverOn(() => flakyStatus);
      key = (await t.issueKey({ account: "hooked" })).key;
      other = (await t.issueKey({ account: "elsewhere" })).key;
      ids.x = await order(key, "x", good);
      await until(() => good.deliveries.filter((d) => d.body.data.order_id === ids.x).length === 2);
      ids.y = await order(key, "y", flaky, true);
      await until(async () => (await deliveryOf(ids.y)).attempts === 1);
      ids.z = await order(other, "z", good, true);
      await until(() => good.deliveries.some((d) => d.body.data.order_id === ids.z));
    });
    after(async () => {
      await t?.stop();
      await good?.stop();
      await flaky?.stop();
    });

    it("lists the account's deliveries newest first: state, attempts, last status code and error", async () => {
      const { status, link, body } = await list();
      assert.deepEqual([status, link, body.next_cursor], [200, null, null]);
      assert.deepEqual(
        body.items.map((d) => d.order_id),
        [ids.y, ids.x, ids.x],
      );
      const [y, x2, x1] = body.items;
      const sentToGood = good.deliveries.filter((d) => d.body.data.order_id === ids.x);
      assert.deepEqual(
        [x1.event_id, x2.event_id],
        sentToGood.map((d) => d.headers["webhook-id"]),
      );
      for (const d of [x1, x2]) {
        assert.deepEqual(
          [d.state, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at],
          ["delivered", 1, 204, null, null],
        );
      }
      assert.deepEqual(
        [y.state, y.attempts, y.last_status_code, y.last_error],
        ["pending", 1, 500, "receiver answered 500"],
      );
      assert.ok(Date.parse(y.next_attempt_at!) > Date.now() + 300_000, y.next_attempt_at!);
      for (const d of body.items) {
        assert.match(d.id, /^dlv_\d+$/);
        assert.match(d.event_id, /^evt_\d+$/);
        assert.equal(d.event_type, d === x2 ? "order.assigned" : "order.created");
        assert.ok(!Number.isNaN(Date.parse(d.created_at)));
      }
      const theirs = await list("", other);
      assert.deepEqual(
        theirs.body.items.map((d) => d.order_id),
        [ids.z],
      );
    });

    it("filters by order_id and state", async () => {
      const orderIds = async (query: string, k = key) => (await list(query, k)).body.items.map((d) => d.order_id);
      assert.deepEqual(await orderIds(`?order_id=${ids.x}`), [ids.x, ids.x]);
      assert.deepEqual(await orderIds("?state=pending"), [ids.y]);
      assert.deepEqual(await orderIds("?state=delivered"), [ids.x, ids.x]);
      assert.deepEqual(await orderIds("?state=dead"), []);
      assert.deepEqual(await orderIds(`?order_id=${ids.z}`), [], "another account's order shows nothing");
      assert.deepEqual(await orderIds(`?order_id=${ids.x}&state=pending`), []);
    });

    it("pages with limit and an opaque cursor, linking each next page (filters kept)", async () => {
      const all = (await list()).body.items.map((d) => d.id);
      const follow = async (first: string) => {
        const seen: string[] = [];
        let url: string | undefined = first;
        for (let page = 0; page < 10 && url; page++) {
          const response: Response = await t.fetch(url, { headers: { "x-api-key": key } });
          assert.equal(response.status, 200);
          const body = (await response.json()) as Page;
          seen.push(...body.items.map((d) => d.id));
          url = /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1];
          assert.equal(Boolean(url), Boolean(body.next_cursor));
        }
        return seen;
      };
      const base = `${t.url}/api/dispatch/v1/webhooks/deliveries`;
      assert.deepEqual(await follow(`${base}?limit=1`), all);
      assert.deepEqual(await follow(`${base}?limit=2`), all);
      assert.deepEqual(await follow(`${base}?state=delivered&limit=1`), all.slice(1));
    });

    it("is a list operation of the SDK: paginate() walks every page", async () => {
      const client = createDispatchClient({ baseUrl: t.url, fetch: t.fetch, apiKey: key, retry: false });
      const seen: string[] = [];
      const pages = paginate(client, "/api/dispatch/v1/webhooks/deliveries", { params: { query: { limit: 1 } } });
      for await (const delivery of pages) seen.push(delivery.id);
      assert.deepEqual(
        seen,
        (await list()).body.items.map((d) => d.id),
      );
    });

    it("answers 422 for a foreign cursor, a listOrders cursor, a limit out of 1-200 and an unknown state", async () => {
      const orders = await t.fetch(`${t.url}/api/dispatch/v1/orders?limit=1`, { headers: { "x-api-key": key } });
      const orderCursor = ((await orders.json()) as Page).next_cursor!;
      assert.ok(orderCursor);
      for (const query of [`cursor=${orderCursor}`, "cursor=bm90LWEtY3Vyc29y", "limit=201", "limit=0", "state=lost"]) {
        const { status, body } = await list(`?${query}`);
        assert.equal(status, 422, query);
        assert.equal((body as unknown as { code: string }).code, "validation_failed", query);
      }
    });

    it("redelivers now: 202 pending; failing again it is dead, then delivered once the receiver recovers", async () => {
      const y = await deliveryOf(ids.y);
      const queued = await redeliver(y.id);
      assert.equal(queued.status, 202);
      assert.deepEqual([queued.body.id, queued.body.state, queued.body.event_id], [y.id, "pending", y.event_id]);
      assert.ok(Math.abs(Date.parse(queued.body.next_attempt_at) - Date.now()) < 5_000, queued.body.next_attempt_at);
      await until(async () => (await deliveryOf(ids.y)).state === "dead");
      const dead = await deliveryOf(ids.y);
      assert.deepEqual([dead.attempts, dead.last_status_code, dead.next_attempt_at], [2, 500, null]);

      flakyStatus = 204;
      assert.equal((await redeliver(y.id)).status, 202);
      await until(async () => (await deliveryOf(ids.y)).state === "delivered");
      const delivered = await deliveryOf(ids.y);
      assert.deepEqual([delivered.attempts, delivered.last_status_code, delivered.last_error], [3, 204, null]);
      assert.deepEqual(
        flaky.deliveries.map((d) => d.headers["webhook-id"]),
        [y.event_id, y.event_id, y.event_id],
      );
      const secret = ((await (await hooks("secret")).json()) as { secret: string }).secret;
      const last = flaky.deliveries.at(-1)!;
      assert.deepEqual(new Webhook(secret).verify(last.raw, last.headers as Record<string, string>), last.body);
    });

    it("redelivers a delivered webhook again with the same webhook-id", async () => {
      const x1 = await deliveryOf(ids.x);
      assert.equal(x1.state, "delivered");
      assert.equal((await redeliver(x1.id)).status, 202);
      await until(() => good.deliveries.filter((d) => d.headers["webhook-id"] === x1.event_id).length === 2);
      await until(async () => (await deliveryOf(ids.x)).attempts === 2);
      assert.equal((await deliveryOf(ids.x)).state, "delivered");
    });

    it("answers 404 for another account's or an unknown delivery, 422 for a malformed id, 401 without a key", async () => {
      const theirs = (await list("", other)).body.items[0];
      for (const id of [theirs.id, "dlv_999999999"]) {
        const { status, body } = await redeliver(id);
        assert.deepEqual(
          [status, body.code, body.detail],
          [404, "not_found", `No webhook delivery ${id} for this account.`],
        );
      }
      for (const id of ["abc", "dlv_", `dlv_${"9".repeat(19)}`]) assert.equal((await redeliver(id)).status, 422, id);
      const anonymous = await t.fetch(`${t.url}/api/dispatch/v1/webhooks/deliveries`);
      assert.equal(anonymous.status, 401);
    });
  });
}
