// `npm run dev` runs the sources through tsx rather than the build: they start, refuse and stop as the build does.
// These are also the only runs of start(), its signal handling and main.ts that c8 counts (it skips server/dist).
import assert from "node:assert/strict";
import { createServer as createNetServer, type Server } from "node:net";
import { serverArgs, spawnServer } from "../helpers/server-process.js";

/** A loopback port bound (taken) or bound and released (nothing listens there). */
async function loopbackPort(keep: boolean): Promise<{ port: number; holder: Server }> {
  const holder = createNetServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  const { port } = holder.address() as { port: number };
  if (!keep) await new Promise((resolve) => holder.close(resolve));
  return { port, holder };
}

describe("npm run dev (the sources through tsx)", function () {
  this.timeout(180_000);
  const sources = serverArgs("sources");

  it("starts in sandbox mode printing its key, drains on SIGTERM and ignores a second signal", async () => {
    const server = spawnServer({ DISPATCH_SANDBOX: "1" }, process.execPath, sources, 170_000);
    try {
      const uri = (await server.waitFor(/http:\/\/127\.0\.0\.1:\d+/, 150_000)).trim();
      await server.waitFor(/^dispatch: sandbox key \(account sandbox, all scopes\): dispatch_test_\w+$/m);
      assert.equal((await fetch(`${uri}/readyz`)).status, 200);
      server.child.kill("SIGTERM");
      server.child.kill("SIGINT"); // npm forwards Ctrl-C too: the stop already under way is the only one
      assert.equal(await server.exited, 0, server.output());
      assert.equal(server.output().match(/: draining/g)?.length, 1, server.output());
      assert.match(server.output(), /dispatch stopped/);
    } finally {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
    }
  });

  it("exits 1 naming PORT when the port is taken", async () => {
    const { port, holder } = await loopbackPort(true);
    try {
      const server = spawnServer({ PORT: String(port) }, process.execPath, sources, 170_000);
      assert.equal(await server.exited, 1);
      assert.match(server.output(), /dispatch: failed to start: PORT: cannot listen on 127\.0\.0\.1:\d+/);
    } finally {
      holder.close();
    }
  });

  it("exits 1 naming DATABASE_URL when the database cannot be opened", async () => {
    const { port } = await loopbackPort(false);
    const url = `postgres://nobody@127.0.0.1:${port}/nowhere`;
    const server = spawnServer({ DATABASE_URL: url }, process.execPath, sources, 170_000);
    assert.equal(await server.exited, 1);
    assert.match(
      server.output(),
      /DATABASE_URL postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/nowhere: cannot open the database/,
    );
  });
});
