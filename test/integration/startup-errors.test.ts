// Boot and runtime messages name the environment variable to fix.
import assert from "node:assert/strict";
import { createServer as createNetServer } from "node:net";
import { spawnServer } from "../helpers/server-process.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

/** A loopback port with nothing listening (bound, read, released). */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("server startup messages", function () {
  this.timeout(120_000);

  const failures = [
    { variable: "HOST", env: { HOST: "not a host!" }, pattern: /HOST.*must be an IP address or a host name/ },
    {
      variable: "DATABASE_URL",
      env: { DATABASE_URL: "postgres://nobody@127.0.0.1:{port}/nowhere" },
      pattern: /DATABASE_URL postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/nowhere: cannot open the database/,
    },
  ];
  for (const { variable, env, pattern } of failures)
    it(`exits 1 naming ${variable} when it is unusable`, async () => {
      const port = String(await closedPort());
      const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace("{port}", port)]));
      const server = spawnServer(filled);
      assert.equal(await server.exited, 1);
      assert.match(server.output(), pattern);
      assert.doesNotMatch(server.output(), /Invalid server options|^\s+at /m);
    });

  it("exits 1 naming PORT when the port is taken", async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const server = spawnServer({ PORT: String((taken.address() as { port: number }).port) });
    assert.equal(await server.exited, 1);
    taken.close();
    assert.match(server.output(), /PORT: cannot listen on 127\.0\.0\.1:\d+/);
  });

  it("logs an unreachable REDIS_URL once, naming it, and keeps serving", async () => {
    const server = spawnServer({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      await server.waitFor(/REDIS_URL redis:\/\/127\.0\.0\.1:\d+ is unreachable/);
      const uri = (await server.waitFor(/http:\/\/127\.0\.0\.1:\d+/)).trim();
      assert.equal((await fetch(`${uri}/healthz`)).status, 200);
      assert.equal(server.output().match(/is unreachable/g)?.length, 1);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });
});

describe("admin authentication hint", function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => (t = await startTestServer()));
  after(() => t?.stop());

  it("names DISPATCH_ADMIN_TOKEN and Authorization: Bearer, not x-api-key", async () => {
    const response = await fetch(`${t.url}/api/admin/v1/keys`);
    const problem = await response.json();
    assert.equal(response.status, 401);
    assert.match(problem.detail, /DISPATCH_ADMIN_TOKEN.*Authorization: Bearer/);
    assert.doesNotMatch(problem.detail, /x-api-key/);
  });
});
