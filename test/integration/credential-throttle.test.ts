// Failed credentials are throttled per (client address, credential), and per address only at a higher cap that
// spares keys in use there: a guesser behind a NAT does not lock out its neighbours. Wrong OAuth client secrets
// count per (address, client_id) and answer 429 slow_down; per-address budgets take an IPv6 client by its /64.
import assert from "node:assert/strict";
import { quoteRequest } from "../fixtures/requests.js";
import { adminToken, databases, startTestServer, type TestServer, type ServerTarget } from "../helpers/server.js";

const from = (client: string) => ({ "x-forwarded-for": client });

const quote = ({ url, fetch }: ServerTarget, client: string, key: string) =>
  fetch(`${url}/api/dispatch/v1/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key, ...from(client) },
    body: JSON.stringify(quoteRequest),
  });

const admin = ({ url, fetch }: ServerTarget, client: string, token: string) =>
  fetch(`${url}/api/admin/v1/keys`, { headers: { authorization: `Bearer ${token}`, ...from(client) } });

const tokenRequest = ({ url, fetch }: ServerTarget, client: string, clientId: string, clientSecret: string) =>
  fetch(`${url}/api/mcp/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...from(client) },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });

async function register({ url, fetch }: ServerTarget, client: string) {
  const response = await fetch(`${url}/api/mcp/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", ...from(client) },
    body: "{}",
  });
  return (await response.json()) as { client_id: string; client_secret: string };
}

/** Statuses of `count` calls made one after another. */
async function statuses(count: number, call: (i: number) => Promise<Response>): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await call(i)).status);
  return seen;
}

for (const db of databases()) {
  describe(`credential throttle (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      // Loopback is the trusted proxy, so each case plays its own client address through X-Forwarded-For.
      t = await startTestServer(db, { TRUSTED_PROXIES: "127.0.0.1, ::1" }, { inject: true });
      key = (await t.issueKey({ account: "throttle" })).key;
    });
    after(() => t?.stop());

    describe("failed keys behind one address", () => {
      it("lets a valid key through while 25 other keys fail from its address", async () => {
        const client = "198.51.100.20";
        const wrong = await statuses(25, (i) => quote(t, client, `dispatch_test_wrong${i}`));
        assert.deepEqual(wrong, Array(25).fill(401));
        assert.equal((await quote(t, client, key)).status, 200);
      });

      it("refuses one wrong key after its 20th failure from an address, and only that key there", async () => {
        const client = "198.51.100.21";
        const wrong = await statuses(22, () => quote(t, client, "dispatch_test_stale"));
        assert.deepEqual(wrong, [...Array(20).fill(401), 429, 429]);
        assert.equal((await quote(t, client, key)).status, 200);
        assert.equal((await quote(t, "198.51.100.22", "dispatch_test_stale")).status, 401);
      });

      it("caps an address at 200 failures: unknown credentials wait, a key in use there keeps working", async () => {
        const client = "198.51.100.23";
        const fresh = (await t.issueKey({ account: "throttle" })).key;
        assert.equal((await quote(t, client, key)).status, 200);
        const wrong = await statuses(201, (i) => quote(t, client, `dispatch_test_guess${i}`));
        assert.deepEqual(wrong, [...Array(200).fill(401), 429]);
        const refused = await quote(t, client, "dispatch_test_another_guess");
        assert.equal(refused.status, 429);
        assert.ok(Number(refused.headers.get("retry-after")) >= 1);
        assert.equal((await quote(t, client, key)).status, 200, "the key in use keeps working");
        // A key not yet seen from the address, and the admin token (never remembered), wait for the window.
        assert.equal((await quote(t, client, fresh)).status, 429);
        assert.equal((await admin(t, client, adminToken)).status, 429);
        assert.equal((await quote(t, "198.51.100.24", fresh)).status, 200);
      });
    });

    describe("wrong OAuth client secrets", () => {
      it("answers 429 slow_down with Retry-After after 20 wrong secrets for one client from one address", async () => {
        const client = "198.51.100.30";
        const registered = await register(t, "198.51.100.31");
        const wrong = await statuses(20, () => tokenRequest(t, client, registered.client_id, "dcs_wrong"));
        assert.deepEqual(wrong, Array(20).fill(401));
        const limited = await tokenRequest(t, client, registered.client_id, "dcs_wrong");
        assert.equal(limited.status, 429);
        assert.ok(Number(limited.headers.get("retry-after")) >= 1);
        assert.equal(limited.headers.get("cache-control"), "no-store");
        const body = (await limited.json()) as { error: string; error_description: string };
        assert.equal(body.error, "slow_down");
        assert.match(body.error_description, /20 failed attempts/);
        // Refused before the secret is checked, from that address only; other clients there are not affected.
        const right = await tokenRequest(t, client, registered.client_id, registered.client_secret);
        assert.equal(right.status, 429);
        const elsewhere = await tokenRequest(t, "198.51.100.32", registered.client_id, registered.client_secret);
        assert.equal(elsewhere.status, 200);
        const other = await register(t, "198.51.100.31");
        assert.equal((await tokenRequest(t, client, other.client_id, other.client_secret)).status, 200);
      });
    });

    describe("per-address budgets over IPv6", () => {
      it("counts every address of one /64 as one client, and an IPv4-mapped address as its IPv4", async () => {
        const sameSlash64 = (i: number) => `2001:db8:7:1:${i.toString(16)}::1`;
        const registrations = await statuses(11, (i) =>
          t.fetch(`${t.url}/api/mcp/oauth/register`, {
            method: "POST",
            headers: { "content-type": "application/json", ...from(sameSlash64(i)) },
            body: "{}",
          }),
        );
        assert.deepEqual(registrations, [...Array(10).fill(201), 429]);
        const next64 = await register(t, "2001:db8:7:2::1");
        assert.ok(next64.client_id);
        const mapped = await statuses(21, (i) =>
          quote(t, i % 2 ? "::ffff:198.51.100.40" : "198.51.100.40", "dispatch_test_mapped"),
        );
        assert.deepEqual(mapped, [...Array(20).fill(401), 429]);
      });
    });
  });
}

// RATE_LIMIT_POINTS is raised for load tests; guessing credentials must not get easier with it.
describe("credential throttle with RATE_LIMIT_POINTS=100000", function () {
  this.timeout(120_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer(
      undefined,
      { TRUSTED_PROXIES: "127.0.0.1, ::1", RATE_LIMIT_POINTS: "100000" },
      { inject: true },
    );
  });
  after(() => t?.stop());

  it("refuses a wrong API key, admin token and client_secret after the default 20 failures", async () => {
    const keys = await statuses(21, () => quote(t, "198.51.100.50", "dispatch_test_guessed"));
    assert.deepEqual(keys, [...Array(20).fill(401), 429]);
    const tokens = await statuses(21, () => admin(t, "198.51.100.51", "wrong-admin-token-0123456789"));
    assert.deepEqual(tokens, [...Array(20).fill(401), 429]);
    const registered = await register(t, "198.51.100.52");
    const secrets = await statuses(21, () => tokenRequest(t, "198.51.100.53", registered.client_id, "dcs_wrong"));
    assert.deepEqual(secrets, [...Array(20).fill(401), 429]);
  });

  it("caps an address at the default 200 failed credentials", async () => {
    const wrong = await statuses(201, (i) => quote(t, "198.51.100.54", `dispatch_test_many${i}`));
    assert.deepEqual(wrong, [...Array(200).fill(401), 429]);
  });
});

describe("credential throttle budgets from the environment", function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    const env = { TRUSTED_PROXIES: "127.0.0.1", AUTH_FAILURES_PER_CREDENTIAL: "3", AUTH_FAILURES_PER_ADDRESS: "5" };
    t = await startTestServer(undefined, env, { inject: true });
  });
  after(() => t?.stop());

  it("takes AUTH_FAILURES_PER_CREDENTIAL and AUTH_FAILURES_PER_ADDRESS", async () => {
    assert.deepEqual(await statuses(4, () => quote(t, "198.51.100.60", "dispatch_test_one")), [401, 401, 401, 429]);
    const many = await statuses(6, (i) => quote(t, "198.51.100.61", `dispatch_test_other${i}`));
    assert.deepEqual(many, [401, 401, 401, 401, 401, 429]);
  });
});
