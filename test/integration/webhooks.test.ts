// Order webhooks: transactional outbox, signed Standard Webhooks, retries, SSRF guards and restarts.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { freePort } from "../../mocks/prism.js";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent, startReceiver, webhookSecret, type Delivery } from "../fixtures/orders.js";
import { databases, startTestServer, type TestDatabase, type TestServer } from "../helpers/server.js";
import { sleep, until } from "../helpers/wait.js";
import { isStatusEvent } from "../../server/services/events/catalogue.js";

const fast = {
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_POLL_MS: "20",
  WEBHOOK_BACKOFF_MS: "50",
  WEBHOOK_MAX_ATTEMPTS: "20",
};
const akOrder = { trade: "hvac", location: { state: "AK" }, description: "No heat." };

/** `<type> <status>` of each delivery of the order, in delivery order. */
function statusesOf(deliveries: Delivery[], orderId: string): string[] {
  return deliveries.filter((d) => d.body.data.order_id === orderId).map((d) => `${d.body.type} ${d.body.data.status}`);
}

function assertSigned(deliveries: Delivery[], secret: string): void {
  for (const d of deliveries) {
    const verified = new Webhook(secret).verify(d.raw, d.headers as Record<string, string>);
    assert.deepEqual(verified, d.body);
    const { status, previous_status } = d.body.data;
    const type =
      previous_status === null ? "order.created" : status === "cancelled" ? "order.cancelled" : "order.status_changed";
    if (isStatusEvent(d.body.type)) assert.equal(d.body.type, type); // a fact's type is pinned by statusesOf
    assert.deepEqual([d.headers["webhook-id"], d.headers["user-agent"]], [d.body.id, "dispatch-webhooks/1"]);
    assert.match(String(d.body.id), /^evt_\d+$/);
  }
  assert.throws(() =>
    new Webhook(`whsec_${Buffer.from("another-secret-entirely!").toString("base64")}`).verify(
      deliveries[0].raw,
      deliveries[0].headers as Record<string, string>,
    ),
  );
}

/** A database two servers can share one after the other: a PGlite directory or a fresh Postgres database. */
async function sharedDatabase(db: TestDatabase): Promise<{ url: string; drop(): Promise<void> }> {
  if (db.name !== "pglite") return db.create();
  const dir = mkdtempSync(join(tmpdir(), "dispatch-wh-"));
  return {
    url: `pglite://${dir}`,
    drop: async () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

for (const db of databases()) {
  describe(`webhooks (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, fast, { inject: true });
      key = (await t.issueKey({ account: "acme" })).key;
    });
    after(() => t?.stop());

    describe("delivery()", () => {
      it("delivers every status change exactly once, in order and signed, to a receiver that comes up late", async () => {
        const port = await freePort();
        const callback_url = `http://127.0.0.1:${port}/hooks`;
        const a = (
          await (
            await postOrder(t, { "x-api-key": key }, { ...orderRequest, reference_id: "wh-a", callback_url })
          ).json()
        ).order.id;
        const b = (await (await postOrder(t, { "x-api-key": key }, { ...akOrder, callback_url })).json()).order.id;
        for (const status of ["dispatched", "en_route", "on_site"]) await recordEvent(t, a, { status });
        await recordEvent(t, a, { status: "completed", final_cost_cents: 40000 });
        await recordEvent(t, b, { status: "cancelled" });
        const outbox = () => t.app.services.db("webhook_outbox").whereIn("order_id", [a, b]);
        await until(async () => (await outbox()).some((r: { attempts: number }) => r.attempts >= 2));
        assert.match((await outbox()).find((r) => r.last_error)!.last_error!, /ECONNREFUSED/);

        const receiver = await startReceiver(port);
        try {
          await until(() => receiver.deliveries.length >= 9);
          await sleep(300); // room for a duplicate to show up (an absence: no condition to wait on)
          assert.equal(receiver.deliveries.length, 9);
          assert.equal(new Set(receiver.deliveries.map((d) => d.headers["webhook-id"])).size, 9);
          assert.deepEqual(statusesOf(receiver.deliveries, a), [
            "order.created pending_dispatch",
            "order.assigned pending_dispatch",
            "order.status_changed dispatched",
            "order.status_changed en_route",
            "order.status_changed on_site",
            "order.status_changed completed",
            "order.completed completed",
          ]);
          assert.deepEqual(statusesOf(receiver.deliveries, b), [
            "order.created accepted_pending_fulfilment",
            "order.cancelled cancelled",
          ]);
          assertSigned(receiver.deliveries, await webhookSecret(t, "acme"));
          const done = receiver.deliveries.find((d) => d.body.type === "order.completed")!.body.data as Record<
            string,
            unknown
          >;
          assert.deepEqual(
            [done.previous_status, done.final_cost_cents, done.status_url],
            ["on_site", 40000, `${t.url}/api/dispatch/v1/orders/${a}`],
          );
          assert.ok((await outbox()).every((r: { status: string }) => r.status === "delivered"));
        } finally {
          await receiver.stop();
        }
      });

      it("gives up after WEBHOOK_MAX_ATTEMPTS failed answers (dead)", async () => {
        const port = await freePort();
        const receiver = await startReceiver(port, 500);
        const s = await startTestServer(
          db,
          { ...fast, WEBHOOK_MAX_ATTEMPTS: "3", WEBHOOK_BACKOFF_MS: "10" },
          { inject: true },
        );
        try {
          const { key: k } = await s.issueKey({ account: "acme" });
          const id = (
            await // unassigned (202): its one event, so one message (a matched order's order.assigned would follow)
            (await postOrder(s, { "x-api-key": k }, { ...akOrder, callback_url: `http://127.0.0.1:${port}/` })).json()
          ).order.id;
          const row = () => s.app.services.db("webhook_outbox").where({ order_id: id }).first();
          await until(async () => (await row())?.status === "dead");
          assert.deepEqual([(await row())?.attempts, receiver.deliveries.length], [3, 3]);
          assert.equal(
            new Set(receiver.deliveries.map((d) => d.headers["webhook-id"])).size,
            1,
            "retries keep the webhook-id",
          );
        } finally {
          await s.stop();
          await receiver.stop();
        }
      });
    });

    describe("ssrf()", () => {
      it("refuses private, loopback and link-local callback URLs at order time (422 at /callback_url)", async () => {
        const s = await startTestServer(db, { WEBHOOK_POLL_MS: "20" }, { inject: true });
        try {
          const { key: k } = await s.issueKey({ account: "acme" });
          for (const url of [
            "http://127.0.0.1:8080/h",
            "http://localhost/h",
            "http://169.254.169.254/latest",
            "http://10.1.2.3/h",
            "http://[::1]/h",
            "http://192.168.1.20/h",
          ]) {
            const response = await postOrder(s, { "x-api-key": k }, { ...orderRequest, callback_url: url });
            const body = await response.json();
            assert.equal(response.status, 422, url);
            assert.deepEqual(
              body.errors.map((e: { pointer: string }) => e.pointer),
              ["/callback_url"],
            );
          }
        } finally {
          await s.stop();
        }
      });

      it("refuses a private address at delivery time too (e.g. after DNS changed)", async () => {
        const port = await freePort();
        const receiver = await startReceiver(port);
        const s = await startTestServer(db, { WEBHOOK_POLL_MS: "20", WEBHOOK_BACKOFF_MS: "10000" }, { inject: true });
        try {
          const { key: k } = await s.issueKey({ account: "acme" });
          const id = (await (await postOrder(s, { "x-api-key": k }, orderRequest)).json()).order.id;
          const rows = s.app.services.db;
          await rows("webhook_secrets").insert({
            account: "acme",
            environment: "test",
            secret: `whsec_${Buffer.from("0123456789abcdef01234567").toString("base64")}`,
          });
          const event = await rows("order_events").where({ order_id: id }).first("id");
          await rows("webhook_outbox").insert({
            message_id: "msg_rebound",
            order_id: id,
            account: "acme",
            environment: "test",
            url: `http://127.0.0.1:${port}/`,
            event_id: event!.id,
            status_base_url: s.url,
          });
          // The message is listed with its event's id (evt_…) in place of the msg_ placeholder.
          const stored = async () => (await rows("webhook_outbox").where({ order_id: id }).first())!;
          await until(async () => (await stored()).attempts >= 1);
          const row = await stored();
          const [delivery] = (
            await s.app.services.webhooks.deliveries({ account: "acme", environment: "test" }, { limit: 1 })
          ).items;
          assert.match(delivery.event_id, /^evt_\d+$/);
          assert.match(row.last_error ?? "", /not allowed/);
          assert.deepEqual([row.status, receiver.deliveries.length], ["pending", 0]);
        } finally {
          await s.stop();
          await receiver.stop();
        }
      });
    });

    describe("restart()", () => {
      it("keeps pending deliveries across a restart and completes them from the next server", async () => {
        const database = await sharedDatabase(db);
        const port = await freePort();
        let first: TestServer | null = await startTestServer(
          db,
          { ...fast, DATABASE_URL: database.url },
          { inject: true },
        );
        let second: TestServer | null = null;
        const receiver = { current: null as Awaited<ReturnType<typeof startReceiver>> | null };
        try {
          const { key: k } = await first.issueKey({ account: "acme" });
          const id = (
            await (
              await postOrder(first, { "x-api-key": k }, { ...orderRequest, callback_url: `http://127.0.0.1:${port}/` })
            ).json()
          ).order.id;
          await recordEvent(first, id, { status: "dispatched" });
          await recordEvent(first, id, { status: "cancelled", note: "stopped mid-delivery" });
          await until(
            async () =>
              Number(
                (await first!.app.services.db("webhook_outbox").where({ order_id: id }).max({ n: "attempts" }))[0].n,
              ) >= 1,
          );
          await first.app.stop();
          first = null;
          receiver.current = await startReceiver(port);
          second = await startTestServer(db, { ...fast, DATABASE_URL: database.url }, { inject: true });
          await until(() => receiver.current!.deliveries.length >= 4);
          assert.deepEqual(statusesOf(receiver.current.deliveries, id), [
            "order.created pending_dispatch",
            "order.assigned pending_dispatch",
            "order.status_changed dispatched",
            "order.cancelled cancelled",
          ]);
          assertSigned(receiver.current.deliveries, await webhookSecret(second, "acme"));
        } finally {
          await first?.app.stop();
          await second?.app.stop();
          await receiver.current?.stop();
          await database.drop();
        }
      });
    });
  });
}
