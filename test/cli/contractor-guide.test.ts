// The contractor guide's views and steps run as written (docs/contractors.md, the ```sh blocks between its
// contractor-* markers): each block with bash -euo pipefail and the built `dispatch` on PATH, as the contractor
// holding a fresh job ("$JOB_ID") beside a fresh open offer, against a server on every test database; then what
// each block did is read back from the server. The walkthrough's blocks run as one script, as the contractor (its
// key in DISPATCH_API_KEY) and the customer (CUSTOMER_KEY), on a fresh offer: what it printed and what the server
// then holds are checked, the feed lines it waited on against the contractor's feed byte for byte.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { answerOffer, call, offeredOrder, orderOf, startContractorWorld } from "../helpers/contractors.js";
import { markedBlocks, userEnv } from "../helpers/readme-blocks.js";
import { root } from "../helpers/server-process.js";
import { databases, type TestServer } from "../helpers/server.js";

const run = promisify(execFile);
const guide = readFileSync(join(root, "docs/contractors.md"), "utf8");

/** A line of the contractor's feed (listen -o ndjson, or an item of listContractorEvents' page). */
interface Line {
  id: string;
  type: string;
  data: Record<string, unknown> & { order_id: string };
}
interface Window {
  start: string;
  end: string;
}

for (const target of databases()) {
  describe(`contractor guide's views and steps (${target.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    let customer: string;
    let firstKey: string;
    let dir: string;
    let serial = 0;

    /** Runs one block as the contractor holding a fresh job; that job's id and what the block printed. */
    async function runBlock(block: string) {
      const job = await offeredOrder(t, customer, `guide-${++serial}`);
      assert.equal((await answerOffer(t, firstKey, job.offer.id, "accept")).status, 200);
      const offered = await offeredOrder(t, customer, `guide-${++serial}`);
      const env = {
        ...userEnv(mkdtempSync(join(dir, "user-")), 0),
        DISPATCH_BASE_URL: t.url,
        DISPATCH_API_KEY: firstKey,
        JOB_ID: job.orderId,
      };
      const { stdout } = await run("bash", ["-c", `set -euo pipefail\n${block}`], { env, cwd: dir });
      return { id: job.orderId, offered: offered.orderId, stdout };
    }

    before(async () => {
      ({ t, customer, firstKey } = await startContractorWorld(target));
      dir = mkdtempSync(join(tmpdir(), "dispatch-contractor-guide-"));
    });
    after(async () => {
      await t?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("lists the open offers: the table, every field, the ids", async () => {
      const [block] = markedBlocks(guide, "contractor-offers-view");
      const { offered, stdout } = await runBlock(block);
      assert.ok(stdout.includes(offered), stdout);
    });
    it("lists the jobs, and on_site from dispatched walks through en_route", async () => {
      const [block] = markedBlocks(guide, "contractor-jobs-view");
      const { id, stdout } = await runBlock(block);
      assert.ok(stdout.includes(id), stdout);
      const order = await orderOf(t, customer, id);
      assert.deepEqual(
        [order.status, order.events.slice(-2).map((event) => event.status), order.eta?.source],
        ["on_site", ["en_route", "on_site"], "contractor"],
      );
    });
    it("lists the job's windows and moves it to the last one", async () => {
      const [block] = markedBlocks(guide, "contractor-job-windows");
      const { id } = await runBlock(block);
      const windows = await t.app.services.db("orders").where({ id }).first();
      const listed = await run("bash", ["-c", 'dispatch jobs windows "$JOB_ID" -o json'], {
        env: {
          ...userEnv(mkdtempSync(join(dir, "check-")), 0),
          DISPATCH_BASE_URL: t.url,
          DISPATCH_API_KEY: firstKey,
          JOB_ID: id,
        },
      });
      const now = JSON.parse(listed.stdout) as { arrival_window: { start: string } };
      assert.equal(Date.parse(now.arrival_window.start), new Date(windows!.arrival_window_start!).getTime());
      const events = await t.app.services.db("order_events").where({ order_id: id, type: "order.rescheduled" });
      assert.equal(events.length, 1);
      assert.equal(events[0].data!.rescheduled_by, "contractor");
    });

    it("walks one job from the offers table to completed, hearing the customer on the feed", async () => {
      const blocks = markedBlocks(guide, "contractor-walkthrough");
      assert.ok(blocks.length >= 8, `${blocks.length} blocks`);
      const { orderId } = await offeredOrder(t, customer, `guide-${++serial}`);
      const env = {
        ...userEnv(mkdtempSync(join(dir, "walk-")), 0),
        DISPATCH_BASE_URL: t.url,
        DISPATCH_API_KEY: firstKey,
        CUSTOMER_KEY: customer,
      };
      // the test's own lines around the doc's: end `listen` however the script ends, and name the order walked
      const stop = `trap 'kill $(jobs -p) 2>/dev/null || true' EXIT`;
      const script = `set -euo pipefail\n${stop}\n${blocks.join("\n")}\nprintf 'walked %s\\n' "$ORDER_ID"`;
      const { stdout } = await run("bash", ["-c", script], { env, cwd: dir, timeout: 90_000 });
      // the table's first offer is the newest: the one just made
      assert.ok(stdout.trimEnd().endsWith(`walked ${orderId}`), stdout);
      const printed = stdout.split("\n").filter((line) => line.startsWith("{") && line.includes('"type":"job.'));
      const lines = printed.map((line) => JSON.parse(line) as Line);
      assert.deepEqual(
        lines.map((line) => [line.type, line.data.order_id]),
        [
          ["job.rescheduled", orderId],
          ["job.price_revision_resolved", orderId],
        ],
      );
      const page = await call(t, "GET", "/api/dispatch/v1/contractor/events?after=cev_0&limit=200", {
        "x-api-key": firstKey,
      });
      const served = (page.body.items as Line[])
        .filter((item) => item.data.order_id === orderId)
        .filter((item) => ["job.rescheduled", "job.price_revision_resolved"].includes(item.type))
        .map((item) => JSON.stringify(item));
      assert.deepEqual(printed, served);
      const [moved, resolved] = lines as [Line, Line];
      const before = moved.data.previous_arrival_window as Window;
      const customerWindow = moved.data.arrival_window as Window;
      assert.notEqual(Date.parse(customerWindow.start), Date.parse(before.start));
      const revision = resolved.data.price_revision as { status: string; amount_cents: number };
      assert.deepEqual([revision.status, revision.amount_cents], ["approved", 120_000]);
      const order = await orderOf(t, customer, orderId);
      assert.deepEqual([order.status, order.nte_cents], ["completed", 120_000]);
      // the contractor's move left the customer's window
      assert.notEqual(Date.parse(order.arrival_window!.start), Date.parse(customerWindow.start));
      const events = await call(t, "GET", `/api/dispatch/v1/orders/${orderId}/events?limit=200`, {
        "x-api-key": customer,
      });
      const items = events.body.items as { type: string; data: Record<string, unknown> }[];
      const eta = items.find(
        (e) => e.type === "order.eta_updated" && (e.data.eta as { source: string }).source === "contractor",
      );
      const arrival = Date.parse((eta!.data.eta as { estimated_arrival_at: string }).estimated_arrival_at);
      assert.ok(
        arrival > Date.parse(before.start) && arrival < Date.parse(before.end),
        `${arrival} in ${before.start}`,
      );
      const rescheduled = items.filter((e) => e.type === "order.rescheduled").map((e) => e.data.rescheduled_by);
      assert.deepEqual(rescheduled, ["customer", "contractor"]);
      const completed = items.find((e) => e.type === "order.completed");
      assert.equal(completed?.data.final_cost_cents, 115_000);
    });
  });
}
