// The built server's pglite://memory starts from the build's snapshot, which already holds the demo pool and no
// audit checkpoint: the pool must be there by default and gone with DISPATCH_SEED_DEMO=false, and the first
// checkpoint must be served at once although start-up no longer signs it (server/services/audit/log.ts).
import assert from "node:assert/strict";
import { adminToken } from "../helpers/server.js";
import { ensureFreshBuild, spawnServer, type ServerProcess } from "../helpers/server-process.js";

const main = ["server/dist/server/main.js"];

async function startBuilt(env: Record<string, string>): Promise<{ server: ServerProcess; base: string }> {
  const server = spawnServer(
    { DATABASE_URL: "pglite://memory", DISPATCH_ADMIN_TOKEN: adminToken, ...env },
    undefined,
    main,
  );
  const line = await server.waitFor(/dispatch listening on http:\/\/[\d.]+:\d+/);
  return { server, base: line.replace("dispatch listening on ", "") };
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill("SIGTERM");
  assert.equal(await server.exited, 0, server.output());
}

async function contractorCount(base: string): Promise<number> {
  const response = await fetch(`${base}/api/admin/v1/contractors?limit=200`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { items: unknown[] };
  return body.items.length;
}

describe("built server on pglite://memory (the build's snapshot)", function () {
  this.timeout(300_000);
  // The two servers (each on its own in-memory database) start at once; each test then checks and stops its own.
  let seeded: ReturnType<typeof startBuilt>;
  let unseeded: ReturnType<typeof startBuilt>;
  before(async () => {
    await ensureFreshBuild();
    seeded = startBuilt({});
    unseeded = startBuilt({ DISPATCH_SEED_DEMO: "false" });
    for (const starting of [seeded, unseeded]) starting.catch(() => undefined); // reported by its own test
  });
  after(async () => {
    for (const starting of [seeded, unseeded]) {
      const started = await starting?.catch(() => undefined);
      if (started?.server.child.exitCode === null) started.server.child.kill("SIGTERM"); // its test did not run
    }
  });

  it("starts with the demo pool and serves a size-0 checkpoint straight away", async () => {
    const { server, base } = await seeded;
    try {
      const checkpoint = await fetch(`${base}/api/attest/checkpoint`);
      assert.equal(checkpoint.status, 200);
      assert.match(await checkpoint.text(), /^[^\n]+\n0\n/); // origin, then tree size 0 (a signed note)
      assert.equal(await contractorCount(base), 128);
    } finally {
      await stop(server);
    }
  });

  it("removes the snapshot's demo pool when started with DISPATCH_SEED_DEMO=false", async () => {
    const { server, base } = await unseeded;
    try {
      assert.equal(await contractorCount(base), 0);
      const estimate = await fetch(`${base}/api/dispatch/v1/estimate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ trade: "plumbing", location: { state: "TX" } }),
      });
      assert.equal(estimate.status, 200); // the wage data still answers with an empty pool
    } finally {
      await stop(server);
    }
  });
});
