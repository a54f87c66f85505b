// `npm start` stops cleanly and frees its port whichever process of the start command gets SIGTERM.
import assert from "node:assert/strict";
import { createServer as createNetServer } from "node:net";
import { spawnServer } from "../helpers/server-process.js";

async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const refused = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`).then(
    () => false,
    () => true,
  );

describe("npm start signals", function () {
  this.timeout(120_000);

  for (const target of ["npm", "server"] as const)
    it(`stops the server and frees the port on SIGTERM to the ${target} process`, async () => {
      const port = await freePort();
      const start = spawnServer({ PORT: String(port), DATABASE_URL: "pglite://memory" }, "npm", ["start"]);
      const line = await start.waitFor(/"pid":\d+[^\n]*dispatch listening/);
      const serverPid = Number(/"pid":(\d+)/.exec(line)![1]);
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      process.kill(target === "npm" ? start.child.pid! : serverPid, "SIGTERM");
      await start.exited;
      await start.waitFor(/dispatch stopped/, 30_000);
      assert.ok(await refused(port), "the port is still served after npm start exited");
      assert.throws(() => process.kill(serverPid, 0), { code: "ESRCH" });
    });
});
