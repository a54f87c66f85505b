// Sandbox mode's start-up: the ready test key (DISPATCH_SANDBOX_KEY or a generated one) and DISPATCH_FIXTURES
// (sandbox mode only, test keys only, nothing repeated, at most 1 MiB, all or nothing).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { components } from "../../sdk/generated/openapi.js";
import { mintApiKey } from "../../server/services/access/keys.js";
import { applyFixtures } from "../../server/services/sandbox/start-up.js";
import { fixtureContractor, quoteRequest } from "../fixtures/requests.js";
import { spawnServer } from "../helpers/server-process.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { until } from "../helpers/wait.js";
import { jsonRequest } from "../helpers/request.js";

type Fixtures = components["schemas"]["SandboxFixtures"];

const v1 = "/api/dispatch/v1";
/** Alaska: the demo pool deliberately has nobody there, so a match there is the fixture's contractor. */
const alaskaJob = { trade: "roofing", location: { state: "AK", city: "Anchorage" }, urgency: "routine" } as const;

const fixtureKey = mintApiKey("test");
const fixtureQuoteKey = mintApiKey("test");
const fixtures = {
  contractors: [fixtureContractor],
  keys: [
    { key: fixtureKey, account: "fixture-co", label: "ci" },
    { key: fixtureQuoteKey, account: "fixture-co", scopes: ["quote"] },
  ],
} satisfies Fixtures;

const dir = mkdtempSync(join(tmpdir(), "dispatch-fixtures-"));
after(() => {
  rmSync(dir, { recursive: true, force: true });
});
function writeFixtures(name: string, content: unknown): string {
  const file = join(dir, name);
  const text =
    typeof content === "string" ? content : name.endsWith(".json") ? JSON.stringify(content) : stringify(content);
  writeFileSync(file, text);
  return file;
}
/** The key with its last checksum character changed. */
const breakChecksum = (key: string) => key.slice(0, -1) + (key.endsWith("0") ? "1" : "0");

const post = (url: string, path: string, key: string, body?: unknown) =>
  jsonRequest(url, "POST", `${v1}${path}`, { headers: { "x-api-key": key }, body });

for (const db of databases()) {
  describe(`sandbox start-up (${db.name})`, function () {
    this.timeout(120_000);

    describe("DISPATCH_SANDBOX_KEY", () => {
      const key = mintApiKey("test");
      let t: TestServer;
      before(async () => (t = await startTestServer(db, { DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: key })));
      after(() => t?.stop());

      it("works at once, with every scope, without an admin call", async () => {
        assert.equal((await post(t.url, "/quote", key, quoteRequest)).status, 200);
        const reset = await post(t.url, "/sandbox/reset", key);
        assert.equal(reset.status, 200);
        assert.equal((await reset.json()).account, "sandbox");
        const orders = await fetch(`${t.url}${v1}/orders`, { headers: { "x-api-key": key } });
        assert.equal(orders.status, 200);
      });

      it("delivers a test-key order's webhooks to a receiver on loopback; refuses a live key's (422)", async () => {
        const received: string[] = [];
        const receiver = createServer((req, res) => {
          req.setEncoding("utf8");
          let body = "";
          req.on("data", (chunk: string) => (body += chunk));
          req.on("end", () => {
            received.push(body);
            res.writeHead(204).end();
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
        try {
          const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
          const job = { ...quoteRequest, description: "Leak.", callback_url: hook };
          const order = await post(t.url, "/order", key, job);
          assert.ok([201, 202].includes(order.status), await order.clone().text());
          const id = ((await order.json()) as { order: { id: string } }).order.id;
          // the worker's default poll (1 s): the delivery comes within a few polls
          await until(() => received.length > 0, { timeoutMs: 10_000, intervalMs: 100, message: "the delivery" });
          assert.match(received[0] ?? "", new RegExp(id));
          const live = (await t.issueKey({ account: "loopback-co", environment: "live" })).key;
          const refused = await post(t.url, "/order", live, job);
          assert.equal(refused.status, 422);
          const problem = (await refused.json()) as { errors: { pointer: string }[] };
          assert.equal(problem.errors[0]?.pointer, "/callback_url");
        } finally {
          await new Promise((resolve) => receiver.close(resolve));
        }
      });

      it("is stored as a hash only, like an issued key", async () => {
        const rows = await t.app.services.db("api_keys").where({ account: "sandbox" });
        assert.equal(rows.length, 1);
        assert.equal(rows[0].key_hash, createHash("sha256").update(key).digest("hex"));
        assert.equal(rows[0].environment, "test");
        assert.ok(!JSON.stringify(rows).includes(key));
        assert.equal(t.app.sandboxKey?.generated, false);
      });
    });

    for (const format of ["yaml", "json"])
      describe(`DISPATCH_FIXTURES (${format})`, () => {
        let t: TestServer;
        before(async () => {
          const file = writeFixtures(`fixtures-${db.name}.${format}`, fixtures);
          t = await startTestServer(db, { DISPATCH_SANDBOX: "1", DISPATCH_FIXTURES: file });
        });
        after(() => t?.stop());

        it("makes the contractors matchable for their trade and location", async () => {
          const response = await post(t.url, "/quote", fixtureKey, alaskaJob);
          assert.equal(response.status, 200);
          const { availability } = await response.json();
          const [row] = await t.app.services.db("contractors").where({ name: "Anchorage Roofing Fixture" });
          assert.equal(availability.available, true);
          assert.equal(availability.best_match_ref, row.ref);
        });

        it("makes the keys work with their account, environment and scopes", async () => {
          const order = await post(t.url, "/order", fixtureKey, { ...alaskaJob, description: "Roof leak." });
          assert.equal(order.status, 201, await order.clone().text());
          const stored = await t.app.services.db("api_keys").where({ account: "fixture-co" }).orderBy("label");
          assert.deepEqual(
            stored.map((k: { environment: string; scopes: string[] }) => [k.environment, k.scopes.join()]),
            [
              ["test", "quote,order,orders:read,webhooks,audit"],
              ["test", "quote"],
            ],
          );
          const quoteOnly = await post(t.url, "/order", fixtureQuoteKey, { ...alaskaJob, description: "Roof leak." });
          assert.equal(quoteOnly.status, 402); // quote-only: not entitled to order
        });
      });

    describe("DISPATCH_FIXTURES loading", () => {
      let t: TestServer;
      before(async () => (t = await startTestServer(db, { DISPATCH_SANDBOX: "1" }, { inject: true })));
      after(() => t?.stop());

      it("loads all or nothing: a key taken by another account leaves no earlier entry behind, naming the file", async () => {
        const taken = (await t.issueKey({ account: "someone-else" })).key;
        const fresh = mintApiKey("test");
        const content = {
          contractors: [{ ...fixtures.contractors[0], name: "All Or Nothing Roofing" }],
          keys: [
            { key: fresh, account: "fixture-co" },
            { key: taken, account: "fixture-co" },
          ],
        } satisfies Fixtures;
        await assert.rejects(
          applyFixtures(t.app.services, { file: "ci/fixtures.yaml", content }),
          /^Error: DISPATCH_FIXTURES ci\/fixtures\.yaml: Key dispatch_test_\w+… is stored already for another use\.$/,
        );
        const { db: knex } = t.app.services;
        assert.deepEqual(await knex("contractors").where({ name: "All Or Nothing Roofing" }), []);
        assert.deepEqual(await knex("api_keys").where({ account: "fixture-co" }), []);
        assert.deepEqual(await knex("audit_records").where({ type: "key_issued", account: "fixture-co" }), []);
      });
    });
  });
}

describe("sandbox start-up messages", function () {
  this.timeout(120_000);

  it("prints exactly one line naming a generated key when DISPATCH_SANDBOX_KEY is absent, and the key works", async () => {
    const server = spawnServer({ DISPATCH_SANDBOX: "1" });
    try {
      const uri = (await server.waitFor(/http:\/\/127\.0\.0\.1:\d+/)).trim();
      const line = await server.waitFor(/^dispatch: sandbox key .*$/m);
      const key = /dispatch_test_[0-9A-Za-z]{38}/.exec(line)?.[0];
      assert.ok(key, line);
      assert.match(line, /account sandbox, all scopes/);
      assert.equal(server.output().split(key).length - 1, 1, "the key appears once");
      assert.equal((await post(uri, "/quote", key, quoteRequest)).status, 200);
      assert.equal((await post(uri, "/sandbox/reset", key)).status, 200);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  const sandbox = { DISPATCH_SANDBOX: "1" };
  const failures = [
    {
      what: "a fixtures file outside sandbox mode",
      env: () => ({ DISPATCH_FIXTURES: writeFixtures("plain.yaml", fixtures) }),
      pattern: /DISPATCH_FIXTURES \S*plain\.yaml: fixtures load only in sandbox mode \(DISPATCH_SANDBOX=1\)/,
    },
    {
      what: "a live key in the fixtures",
      env: () => ({
        ...sandbox,
        DISPATCH_FIXTURES: writeFixtures("live.yaml", { keys: [{ key: mintApiKey("live"), account: "a" }] }),
      }),
      pattern: /DISPATCH_FIXTURES \S*live\.yaml: \/keys\/0\/key is a live key: fixtures hold test keys/,
    },
    {
      what: "a key listed twice",
      env: () => ({
        ...sandbox,
        DISPATCH_FIXTURES: writeFixtures("twice.yaml", {
          keys: [
            { key: fixtureKey, account: "a", scopes: ["quote"] },
            { key: fixtureKey, account: "a" },
          ],
        }),
      }),
      pattern: /DISPATCH_FIXTURES \S*twice\.yaml: \/keys\/1 repeats \/keys\/0/,
    },
    {
      what: "a contractor name listed twice",
      env: () => ({
        ...sandbox,
        DISPATCH_FIXTURES: writeFixtures("twins.json", {
          contractors: [fixtures.contractors[0], fixtures.contractors[0]],
        }),
      }),
      pattern: /DISPATCH_FIXTURES \S*twins\.json: \/contractors\/1 repeats \/contractors\/0/,
    },
    {
      what: "a fixtures file over 1 MiB (50 MiB, sized before reading)",
      env: () => {
        const file = writeFixtures("huge.yaml", "keys: []\n");
        truncateSync(file, 50 * 1024 * 1024);
        return { ...sandbox, DISPATCH_FIXTURES: file };
      },
      pattern: /DISPATCH_FIXTURES \S*huge\.yaml: the file is 52428800 bytes, over the 1 MiB \(1048576 bytes\) limit/,
    },
    {
      what: "a malformed DISPATCH_SANDBOX_KEY",
      env: () => ({ DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: "dispatch_test_not-a-key" }),
      pattern: /DISPATCH_SANDBOX_KEY.*must be a dispatch_test_ key in the format the server issues/,
    },
    {
      what: "a live key as DISPATCH_SANDBOX_KEY",
      env: () => ({ DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: mintApiKey("live") }),
      pattern: /DISPATCH_SANDBOX_KEY.*must be a dispatch_test_ key/,
    },
    {
      what: "a key with a wrong checksum",
      env: () => ({ DISPATCH_SANDBOX: "1", DISPATCH_SANDBOX_KEY: breakChecksum(mintApiKey("test")) }),
      pattern: /DISPATCH_SANDBOX_KEY.*must be a dispatch_test_ key/,
    },
    {
      what: "a fixtures trade the contract does not know (YAML)",
      env: () => {
        const bad = structuredClone(fixtures) as { contractors: { trades: string[] }[] };
        bad.contractors.push({ ...bad.contractors[0], trades: ["roofing", "chimney"] });
        return { ...sandbox, DISPATCH_FIXTURES: writeFixtures("fixtures.yaml", bad) };
      },
      pattern: /DISPATCH_FIXTURES \S*fixtures\.yaml: \/contractors\/1\/trades\/1 must be one of \[/,
    },
    {
      what: "a fixtures key without its account (JSON)",
      env: () => ({ ...sandbox, DISPATCH_FIXTURES: writeFixtures("fixtures.json", { keys: [{ key: fixtureKey }] }) }),
      pattern: /DISPATCH_FIXTURES \S*fixtures\.json: \/keys\/0\/account is required/,
    },
    {
      what: "a fixtures key with a wrong checksum",
      env: () => ({
        ...sandbox,
        DISPATCH_FIXTURES: writeFixtures("checksum.yaml", { keys: [{ key: breakChecksum(fixtureKey), account: "a" }] }),
      }),
      pattern: /checksum\.yaml: \/keys\/0\/key has a wrong checksum/,
    },
    {
      what: "a fixtures file that is not JSON",
      env: () => ({ ...sandbox, DISPATCH_FIXTURES: writeFixtures("broken.json", "{") }),
      pattern: /broken\.json: not valid JSON/,
    },
    {
      what: "a missing fixtures file",
      env: () => ({ ...sandbox, DISPATCH_FIXTURES: join(dir, "absent.yaml") }),
      pattern: /DISPATCH_FIXTURES \S*absent\.yaml: cannot read the file/,
    },
  ];
  for (const { what, env, pattern } of failures)
    it(`exits 1 naming the problem for ${what}`, async () => {
      const server = spawnServer(env());
      assert.equal(await server.exited, 1);
      assert.match(server.output(), pattern);
      assert.doesNotMatch(server.output(), /^\s+at /m);
    });
});
