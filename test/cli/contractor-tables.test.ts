// What a technician reads at the command line (x-cli-table, cli/columns.ts): `dispatch offers list` and `dispatch
// jobs list` lead with the facts it decides from (order id, status, place, window and times in the job's own zone,
// price, NTE, respond-by, the revision's outcome, the next steps) on a terminal, cut from the right when narrow;
// piped, `-o table` prints the same columns whole and no cell holds JSON, while `-o json` and `--query` read the
// answer as the server sent it. `dispatch jobs windows` lists the windows a job can move to, and the move to one
// takes it. Against a server on every test database, with the contractor world of the integration suites.
import assert from "node:assert/strict";
import { answerOffer, call, offeredOrder, startContractorWorld } from "../helpers/contractors.js";
import { databases, type TestServer } from "../helpers/server.js";
import { runCli } from "./run-cli.js";

const usd = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);

/** A table's header words and its rows split on runs of two spaces or more. */
function tableOf(text: string, list = "ITEMS:") {
  const lines = text
    .slice(text.indexOf(list) + list.length)
    .trim()
    .split("\n");
  const header = lines[0].trim().split(/\s{2,}/);
  return { header, rows: lines.slice(2).map((line) => line.trim().split(/\s{2,}/)) };
}

for (const target of databases()) {
  describe(`cli contractor tables (${target.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let customer: string;
    let firstKey: string;
    let held: string;
    let offered: { orderId: string; offer: { id: string } };
    const dispatch = (args: string[], tty?: { columns: number }) =>
      runCli([...args, "--base-url", t.url], { env: { DISPATCH_API_KEY: firstKey }, tty });

    before(async () => {
      ({ t, customer, firstKey } = await startContractorWorld(target));
      const job = await offeredOrder(t, customer, "cli-held");
      assert.equal((await answerOffer(t, firstKey, job.offer.id, "accept")).status, 200);
      held = job.orderId;
      offered = await offeredOrder(t, customer, "cli-offered");
    });
    after(() => t?.stop());

    it("jobs list on a terminal leads with order id, status, place, window, ETA, price, NTE, revision, next steps", async () => {
      const run = await dispatch(["jobs", "list"], { columns: 250 });
      assert.equal(run.code, 0, run.stderr);
      const { header, rows } = tableOf(run.stdout);
      assert.deepEqual(header, [
        "ORDER_ID",
        "STATUS",
        "PLACE",
        "WINDOW",
        "ETA",
        "PRICE",
        "NTE",
        "REVISION",
        "NEXT",
        "ADDRESS",
        "TRADE",
      ]);
      const order = (await call(t, "GET", `/api/dispatch/v1/orders/${held}`, { "x-api-key": customer })).body as {
        quoted_cost_cents: number;
        arrival_window: { start: string; end: string };
      };
      const row = rows.find((cells) => cells[0] === held)!;
      const [day, hours] = [order.arrival_window.start.slice(0, 10), order.arrival_window.start.slice(11, 16)];
      assert.deepEqual(row.slice(1, 3), ["dispatched", "Anchorage AK 99501"]);
      assert.match(row[3], new RegExp(`^${day} ${hours}-\\d\\d:00 -0[89]:00$`));
      assert.match(row[4], /^\d{4}-\d\d-\d\d \d\d:\d\d -0[89]:00$/); // the ETA on the job's clock, not UTC
      assert.deepEqual(row.slice(5), [
        usd(order.quoted_cost_cents),
        usd(100_000),
        "en_route,on_site,unable_to_attend", // REVISION is empty: no revision asked
        "1 Main St, Back office",
        "plumbing",
      ]);
    });
    it("a narrow terminal keeps the leading columns and drops from the right", async () => {
      const run = await dispatch(["jobs", "list"], { columns: 80 });
      assert.equal(run.code, 0, run.stderr);
      const { header } = tableOf(run.stdout);
      assert.deepEqual(header.slice(0, 2), ["ORDER_ID", "STATUS"]);
      assert.ok(!header.includes("TRADE"));
    });
    it("piped, -o table prints the same columns whole and no JSON in any cell", async () => {
      const run = await dispatch(["jobs", "list", "-o", "table"]);
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stdout, /[{}[\]"]/);
      assert.deepEqual(tableOf(run.stdout).header.slice(0, 4), ["ORDER_ID", "STATUS", "PLACE", "WINDOW"]);
    });
    it("piped, the default and -o json are the answer as sent, and --query reads its fields", async () => {
      const json = await dispatch(["jobs", "list"]);
      const page = JSON.parse(json.stdout) as { items: { job: { order_id: string }; next_steps: string[] }[] };
      assert.ok(page.items.some((item) => item.job.order_id === held));
      const ids = await dispatch(["jobs", "list", "-q", "items[].job.order_id", "-o", "json"]);
      assert.deepEqual(
        JSON.parse(ids.stdout),
        page.items.map((item) => item.job.order_id),
      );
      const tableQuery = await dispatch(["jobs", "list", "-q", "items[0].job.order_id", "-o", "table"]);
      assert.equal(tableQuery.stdout.trim(), page.items[0].job.order_id);
    });
    it("offers list leads with the offer, status, trade, city and ZIP (no street), window, price, NTE, respond-by", async () => {
      const run = await dispatch(["offers", "list", "--status", "offered"], { columns: 250 });
      assert.equal(run.code, 0, run.stderr);
      const { header, rows } = tableOf(run.stdout);
      assert.deepEqual(header, [
        "OFFER_ID",
        "STATUS",
        "TRADE",
        "PLACE",
        "WINDOW",
        "PRICE",
        "NTE",
        "RESPOND_BY",
        "ORDER_ID",
      ]);
      const row = rows.find((cells) => cells[0] === offered.offer.id)!;
      assert.deepEqual(row.slice(1, 4), ["offered", "plumbing", "Anchorage AK 99501"]);
      assert.match(row[7], /^\d{4}-\d\d-\d\d \d\d:\d\d -0[89]:00$/);
      assert.deepEqual([row[6], row[8]], [usd(100_000), offered.orderId]);
    });
    it("jobs windows lists the windows the job can move to, and jobs reschedule takes one", async () => {
      const listed = await dispatch(["jobs", "windows", held, "-o", "json"]);
      assert.equal(listed.code, 0, listed.stderr);
      const windows = JSON.parse(listed.stdout) as { windows: { start: string; end: string }[] };
      assert.ok(windows.windows.length > 0);
      const to = windows.windows.at(-1)!;
      const table = await dispatch(["jobs", "windows", held], { columns: 120 });
      assert.ok(tableOf(table.stdout, "WINDOWS:").rows.some((cells) => cells.join(" ") === `${to.start} ${to.end}`));
      const moved = await dispatch(["jobs", "reschedule", held, "--window", `${to.start}/${to.end}`, "-o", "json"]);
      assert.equal(moved.code, 0, moved.stderr);
      assert.deepEqual((JSON.parse(moved.stdout) as { job: { arrival_window: unknown } }).job.arrival_window, to);
    });
  });
}
