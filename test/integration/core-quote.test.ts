// Quote, keys and limits of the server core (spec §4.2, §5, §7, §8) on every test database.
import assert from "node:assert/strict";
import { createDispatchClient } from "../../sdk/index.js";
import { oauthToken } from "../fixtures/orders.js";
import { quoteRequest } from "../fixtures/requests.js";
import { adminToken, databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";

const quote = ({ url, fetch }: ServerTarget, headers: Record<string, string>, body: unknown = quoteRequest) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

for (const db of databases()) {
  describe(`server core quote and keys (${db.name})`, function () {
    this.timeout(90_000);
    let t: TestServer;
    before(async () => (t = await startTestServer(db, {}, { inject: true })));
    after(() => t?.stop());

    describe("keys", () => {
      it("issues dispatch_test_/dispatch_live_ keys with ≥128 random bits and stores only a SHA-256 hash", async () => {
        const test = await t.issueKey({ environment: "test" });
        const live = await t.issueKey({ environment: "live" });
        assert.match(test.key, /^dispatch_test_[0-9A-Za-z]{38}$/);
        assert.match(live.key, /^dispatch_live_[0-9A-Za-z]{38}$/);
        const rows = await t.app.services.db("api_keys").select("*");
        const stored = JSON.stringify(rows);
        assert.ok(!stored.includes(test.key) && !stored.includes(live.key));
        assert.ok(rows.every((r: { key_hash: string }) => /^[0-9a-f]{64}$/.test(r.key_hash)));
      });

      it("lists keys without secrets and revokes them at once", async () => {
        const issued = await t.issueKey({ account: "revoker" });
        assert.equal((await quote(t, { "x-api-key": issued.key })).status, 200);
        const admin = createDispatchClient({ baseUrl: t.url, fetch: t.fetch, adminToken, retry: false });
        const { data: page } = await admin.GET("/api/admin/v1/keys", { params: { query: { account: "revoker" } } });
        assert.equal(page!.items.length, 1);
        assert.ok(!JSON.stringify(page).includes(issued.key));
        const { data: revoked } = await admin.DELETE("/api/admin/v1/keys/{id}", {
          params: { path: { id: issued.id } },
        });
        assert.ok(revoked!.revoked_at);
        const after = await quote(t, { "x-api-key": issued.key });
        assert.equal(after.status, 401);
      });

      it("guards the admin area with the admin token", async () => {
        const none = await t.fetch(`${t.url}/api/admin/v1/keys`);
        const wrong = await t.fetch(`${t.url}/api/admin/v1/keys`, {
          headers: { authorization: "Bearer not-the-admin-token" },
        });
        assert.deepEqual([none.status, wrong.status], [401, 401]);
        assert.ok(none.headers.get("www-authenticate"));
      });
    });

    describe("createQuote()", () => {
      it("answers 401 with WWW-Authenticate to an anonymous caller", async () => {
        const response = await quote(t, {});
        assert.equal(response.status, 401);
        assert.match(response.headers.get("www-authenticate")!, /ApiKey.*Bearer/);
        assert.equal(response.headers.get("content-type"), "application/problem+json");
      });

      it("answers 401 to an invalid key and to an API key sent as Bearer", async () => {
        const { key } = await t.issueKey();
        assert.equal((await quote(t, { "x-api-key": "dispatch_test_not_a_real_key" })).status, 401);
        assert.equal((await quote(t, { authorization: `Bearer ${key}` })).status, 401);
      });

      it("quotes matched availability, cost in cents, ETA tier and validity for a key", async () => {
        const { key } = await t.issueKey();
        const response = await quote(t, { "x-api-key": key });
        const body = await response.json();
        assert.equal(response.status, 200);
        assert.equal(body.availability.available, true);
        assert.equal(body.availability.coverage, "zip");
        assert.match(body.availability.best_match_ref, /^ctr_\*\*\*\*[0-9a-f]{4}$/);
        assert.ok(Number.isInteger(body.estimated_cost_cents) && body.estimated_cost_cents > 0);
        assert.equal(body.nte.fits, body.estimated_cost_cents <= 45000);
        assert.equal(body.valid_for_minutes, 30);
        assert.equal(response.headers.get("ratelimit-policy"), '"default";q=200;w=60');
      });

      it("says a job does not fit a too-small NTE and quotes no contractor in AK", async () => {
        const { key } = await t.issueKey();
        const tight = await (await quote(t, { "x-api-key": key }, { ...quoteRequest, nte_cents: 100 })).json();
        assert.deepEqual([tight.nte.fits, tight.nte.headroom_cents < 0], [false, true]);
        const alaska = await (
          await quote(t, { "x-api-key": key }, { trade: "hvac", location: { state: "AK" } })
        ).json();
        assert.deepEqual(
          [alaska.availability.available, alaska.eta_tier, alaska.estimated_cost_cents],
          [false, "unavailable", null],
        );
      });

      it("accepts an OAuth access token as Bearer", async () => {
        const token = await oauthToken(t);
        assert.equal((await quote(t, { authorization: `Bearer ${token}` })).status, 200);
      });

      it("answers 422 for out-of-bound fields", async () => {
        const { key } = await t.issueKey();
        const response = await quote(
          t,
          { "x-api-key": key },
          {
            trade: "plumbing",
            location: { state: "TX", zip: "12345678901" },
            nte_cents: 0,
            description: "x".repeat(2001),
          },
        );
        const body = await response.json();
        assert.equal(response.status, 422);
        // A field may fail more than one bound (the ZIP's length and its pattern); each pointer appears.
        assert.deepEqual([...new Set(body.errors.map((e: { pointer: string }) => e.pointer))].sort(), [
          "/description",
          "/location/zip",
          "/nte_cents",
        ]);
      });

      it("allows a burst of 200 per key, then 429 with Retry-After and RateLimit headers", async () => {
        const { key } = await t.issueKey({ account: "bursty" });
        const statuses: number[] = [];
        for (let i = 0; i < 201; i++)
          statuses.push((await quote(t, { "x-api-key": key }, { trade: "hvac", location: { state: "CA" } })).status);
        assert.equal(statuses.filter((s) => s === 200).length, 200);
        const limited = await quote(t, { "x-api-key": key });
        assert.equal(statuses[200], 429);
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.headers.get("retry-after")) >= 1 && Number(limited.headers.get("retry-after")) <= 60);
        assert.match(limited.headers.get("ratelimit")!, /^"default";r=0;t=\d+$/);
        assert.equal((await limited.json()).code, "rate_limited");
        const other = await t.issueKey({ account: "bursty" });
        assert.equal((await quote(t, { "x-api-key": other.key })).status, 200, "limits are per key");
      });
    });
  });

  describe(`server core unavailability (${db.name})`, function () {
    this.timeout(60_000);
    for (const [label, env] of [
      ["DISPATCH_DISABLED=true", { DISPATCH_DISABLED: "true" }],
      ["an empty contractor pool", { DISPATCH_SEED_DEMO: "false" }],
    ] as const) {
      it(`answers quote 503 with ${label}`, async () => {
        const t = await startTestServer(db, env, { inject: true });
        try {
          const { key } = await t.issueKey();
          const response = await quote(t, { "x-api-key": key });
          assert.equal(response.status, 503);
          assert.equal((await response.json()).code, "dispatch_unavailable");
          assert.ok(response.headers.get("retry-after"));
        } finally {
          await t.stop();
        }
      });
    }
  });
}
