// The README's "Both sides of a job" works as written: its ```sh blocks run with bash after the walkthrough's first
// block (the second terminal's settings), against the built server started with WEBHOOK_ALLOW_PRIVATE=true. The
// customer's live order is accepted, reported en route, revised, approved and completed by its contractor's key, and
// every event of the order reaches the loopback receiver twice, by webhook and by `dispatch listen`: the two files
// are the order's feed, event by event, byte for byte the same (the script's own `cmp` says so too).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { markedBlocks, userEnv } from "../helpers/readme-blocks.js";
import { root, spawnServer, type ServerProcess } from "../helpers/server-process.js";

const run = promisify(execFile);

interface Event {
  id: string;
  type: string;
  data: { order_id: string };
}

describe("README walkthrough: both sides of a job", function () {
  this.timeout(300_000);
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const setup = markedBlocks(readme, "walkthrough")[0];
  const blocks = markedBlocks(readme, "walkthrough-both-sides");
  let dir: string;
  let server: ServerProcess | undefined;

  before(async () => {
    if (!existsSync(join(root, "cli/dist/dispatch.cjs"))) await run("npm", ["run", "build"], { cwd: root });
    dir = mkdtempSync(join(tmpdir(), "dispatch-both-sides-"));
  });
  after(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it("plays the customer (live key) and its contractor (contractor key) with the CLI", () => {
    const script = blocks.join("\n");
    for (const step of [
      "--environment live",
      "dispatch listen --forward-to",
      "dispatch admin contractors key",
      "dispatch offers accept",
      "--status en_route",
      "dispatch jobs revise",
      "dispatch orders revisions approve",
      "--status completed",
      "cmp ",
    ])
      assert.ok(script.includes(step), `the section lacks ${step}`);
  });

  it("runs with bash -euo pipefail; webhook and listen deliver the order's feed, byte for byte the same", async () => {
    const token = /export DISPATCH_ADMIN_TOKEN=(\S+)/.exec(setup)?.[1];
    assert.ok(token, "the walkthrough exports the server's admin token");
    server = spawnServer({
      DISPATCH_ADMIN_TOKEN: token,
      PORT: "0",
      DATABASE_URL: `pglite://${join(dir, "data")}`,
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    const line = await server.waitFor(/dispatch listening[^\n]*/);
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(line)?.[1] ?? /"port":(\d+)/.exec(line)?.[1]);
    assert.ok(port > 0, `no port in: ${line}`);
    const script = [
      "set -euo pipefail",
      setup,
      ...blocks,
      'echo "walk=$WALK order=$ORDER_ID customer=$CUSTOMER_KEY"',
    ].join("\n");
    const { stdout } = await run("bash", ["-c", script], { cwd: root, env: userEnv(dir, port), timeout: 180_000 });
    const [, walk, orderId, customerKey] =
      /^walk=(\S+) order=(ord_\w+) customer=(dispatch_live_\w+)$/m.exec(stdout) ?? [];
    assert.ok(walk && orderId && customerKey, `no walk folder, order or live key in:\n${stdout}`);
    try {
      // what each step printed: the offer accepted, the job en route, the NTE raised, on site, completed
      assert.match(stdout, /^dispatched\nen_route\n60000\non_site\ncompleted\n/m);
      assert.match(stdout, /^\d+ events, the same bytes on both paths$/m);
      const feed = (await (
        await fetch(`http://127.0.0.1:${String(port)}/api/dispatch/v1/orders/${orderId}/events?limit=100`, {
          headers: { "x-api-key": customerKey },
        })
      ).json()) as { items: Event[] };
      const webhook = readFileSync(join(walk, "webhook.ndjson"));
      const listen = readFileSync(join(walk, "listen.ndjson"));
      assert.ok(webhook.equals(listen), "webhook and listen bodies differ");
      const bodies = webhook.toString().trimEnd().split("\n");
      const events = bodies.map((body) => JSON.parse(body) as Event);
      assert.deepEqual(
        events.map((e) => e.id),
        feed.items.map((e) => e.id),
        "the deliveries are the order's feed, in order",
      );
      // each body is the feed's event as the feed renders it
      assert.deepEqual(events, feed.items);
      assert.ok(events.every((e) => e.data.order_id === orderId));
      const types = new Set(events.map((e) => e.type));
      for (const type of [
        "order.created",
        "order.assigned",
        "order.status_changed",
        "order.price_revision_requested",
        "order.price_revision_resolved",
        "order.completed",
      ])
        assert.ok(types.has(type), `no ${type} among ${[...types].join(", ")}`);
      // listen's own lines name each event it forwarded, answered 204 by the receiver
      const printed = readFileSync(join(walk, "listen.log"), "utf8").trimEnd().split("\n");
      assert.deepEqual(
        printed.map((l) => JSON.parse(l) as { id: string; forwarded: string }).map((l) => [l.id, l.forwarded]),
        events.map((e) => [e.id, "204"]),
      );
    } finally {
      rmSync(walk, { recursive: true, force: true });
    }
  });
});
