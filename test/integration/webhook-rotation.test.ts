// rotateWebhookSecret: a new secret at once, the replaced one signing beside it for 24 h (receivers verify with the
// standardwebhooks library), then only the new one; on every test database.
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { freePort } from "../../mocks/prism.js";
import { orderRequest } from "../fixtures/requests.js";
import { postOrder, recordEvent, startReceiver, type Delivery } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";

const fast = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20", WEBHOOK_BACKOFF_MS: "50" };
const strangerSecret = `whsec_${Buffer.from("another-secret-entirely!").toString("base64")}`;

interface Rotation {
  account: string;
  secret: string;
  created_at: string;
  previous_expires_at: string | null;
}

/** True when `secret` verifies the delivery as a Standard Webhooks receiver would. */
function verifies(delivery: Delivery, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.raw, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const signaturesOf = (delivery: Delivery) => String(delivery.headers["webhook-signature"]).split(" ");

for (const db of databases()) {
  describe(`webhook secret rotation (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let callbackUrl: string;
    const call = (path: string, key: string, method = "GET") =>
      jsonRequest(t, method, `/api/dispatch/v1/webhooks/${path}`, { headers: { "x-api-key": key } });
    const rotate = async (key: string) => {
      const response = await call("secret/rotate", key, "POST");
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("cache-control"), "no-store");
      return (await response.json()) as Rotation;
    };
    const secretOf = async (key: string) => ((await (await call("secret", key)).json()) as { secret: string }).secret;
    /** The deliveries of one order once `count` have arrived. */
    const deliveriesOf = async (orderId: string, count: number) => {
      const mine = () => receiver.deliveries.filter((d) => d.body.data.order_id === orderId);
      await until(() => mine().length >= count);
      return mine();
    };

    before(async () => {
      t = await startTestServer(db, fast, { inject: true });
      const port = await freePort();
      receiver = await startReceiver(port);
      callbackUrl = `http://127.0.0.1:${port}/hooks`;
    });
    after(async () => {
      await t?.stop();
      await receiver?.stop();
    });

    it("signs with the old and the new secret for 24 h, then with the new one only", async () => {
      const { key } = await t.issueKey({ account: "rotor" });
      const old = await secretOf(key);
      const started = Date.now();
      const rotated = await rotate(key);
      assert.equal(rotated.account, "rotor");
      assert.match(rotated.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.notEqual(rotated.secret, old);
      assert.equal(await secretOf(key), rotated.secret, "the new secret is the account's secret at once");
      const overlap = Date.parse(rotated.previous_expires_at!) - started;
      assert.ok(Math.abs(overlap - 24 * 3_600_000) < 60_000, `previous secret expires in ${overlap} ms`);

      const body = { ...orderRequest, reference_id: "rotated", callback_url: callbackUrl };
      const id = (await (await postOrder(t, { "x-api-key": key }, body)).json()).order.id;
      const [during] = await deliveriesOf(id, 1);
      assert.equal(signaturesOf(during).length, 2);
      assert.ok(signaturesOf(during).every((s) => /^v1,[A-Za-z0-9+/]{43}=$/.test(s)));
      assert.deepEqual(
        [verifies(during, old), verifies(during, rotated.secret), verifies(during, strangerSecret)],
        [true, true, false],
      );

      // The window ends: the replaced secret's stored expiry is moved into the past.
      const expired = await t.app.services
        .db("webhook_retired_secrets")
        .where({ account: "rotor" })
        .update({ expires_at: new Date(Date.now() - 1000) });
      assert.equal(expired, 1);
      await recordEvent(t, id, { status: "dispatched" });
      const after = (await deliveriesOf(id, 3))[2]; // after order.created and order.assigned
      assert.equal(after.body.data.status, "dispatched");
      assert.equal(signaturesOf(after).length, 1);
      assert.deepEqual([verifies(after, old), verifies(after, rotated.secret)], [false, true]);
    });

    it("creates the first secret of an account that had none (previous_expires_at null)", async () => {
      const { key } = await t.issueKey({ account: "fresh-rotor" });
      const first = await rotate(key);
      assert.equal(first.previous_expires_at, null);
      assert.equal(await secretOf(key), first.secret);
    });

    it("signs with at most four secrets: rotating again keeps the three newest replaced ones", async () => {
      const { key } = await t.issueKey({ account: "busy-rotor" });
      const secrets = [await secretOf(key)];
      for (let i = 0; i < 5; i++) secrets.push((await rotate(key)).secret);
      const body = { ...orderRequest, reference_id: "many", callback_url: callbackUrl };
      const id = (await (await postOrder(t, { "x-api-key": key }, body)).json()).order.id;
      const [delivery] = await deliveriesOf(id, 1);
      assert.equal(signaturesOf(delivery).length, 4);
      assert.ok(String(delivery.headers["webhook-signature"]).length <= 200);
      assert.deepEqual(
        secrets.map((s) => verifies(delivery, s)),
        [false, false, true, true, true, true],
      );
      const kept = await t.app.services.db("webhook_retired_secrets").where({ account: "busy-rotor" });
      assert.equal(kept.length, 3, "older replaced secrets are dropped");
    });

    it("answers 401 without a key", async () => {
      const response = await t.fetch(`${t.url}/api/dispatch/v1/webhooks/secret/rotate`, { method: "POST" });
      assert.equal(response.status, 401);
      assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
    });
  });
}
