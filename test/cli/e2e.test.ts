// `dispatch` against the built server users run (embedded PGlite in memory): every command of the CLI, in one story.
import assert from "node:assert/strict";
import { operations } from "../../cli/generated/operations.js";
import { freePort } from "../../mocks/prism.js";
import { startReceiver } from "../fixtures/orders.js";
import { startBuiltServer, type BuiltServer } from "../helpers/server-process.js";
import { adminToken } from "../helpers/server.js";
import { oneLine, runCli } from "./run-cli.js";
import { sleep, until } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

describe("cli", function () {
  this.timeout(180_000);
  let t: BuiltServer;
  const covered = new Set<string>();
  const cli = async (args: string[], env: Record<string, string> = {}) => {
    const command = operations.find((o) => o.command.every((word, i) => args[i] === word));
    if (command) covered.add(command.command.join(" "));
    const run = await runCli([...args, "--base-url", t.url, "--output", "json"], { env });
    return { ...run, json: () => JSON.parse(run.stdout) };
  };
  const admin = { DISPATCH_ADMIN_TOKEN: adminToken };
  let key: string;
  let keyId: string;
  let orderId: string;
  let seal: string;

  before(async () => (t = await startBuiltServer(null, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20" })));
  after(async () => t?.stop());

  describe("e2e against the real server", () => {
    it("admin keys create / list", async () => {
      const created = await cli(
        ["admin", "keys", "create", "--account", "acme-cli", "--environment", "test", "--label", "cli e2e"],
        admin,
      );
      assert.equal(created.code, 0, created.stderr);
      ({ key, id: keyId } = created.json());
      assert.match(key, /^dispatch_test_/);
      const listed = await cli(["admin", "keys", "list", "--account", "acme-cli"], admin);
      assert.deepEqual(
        listed.json().items.map((k: { id: string }) => k.id),
        [keyId],
      );
    });

    it("index, evals, estimate, health and discovery", async () => {
      assert.equal((await cli(["index"])).json().trades.length, 8);
      assert.equal((await cli(["evals", "--period", "rolling_7d"])).json().period, "rolling_7d");
      assert.equal((await cli(["estimate", "--trade", "roofing", "--state", "FL"])).json().national_baseline, true);
      for (const args of [
        ["health", "live"],
        ["health", "ready"],
        ["discovery", "agent-card"],
        ["discovery", "protected-resource"],
        ["discovery", "authorization-server"],
        ["discovery", "capabilities"],
        ["discovery", "home"],
        ["discovery", "openapi"],
        ["discovery", "openapi-yaml"],
        ["discovery", "docs"],
        ["discovery", "docs-bundle"],
      ]) {
        const run = await cli(args);
        assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
        assert.ok(run.stdout.length > 10, args.join(" "));
      }
    });

    it("quote with a key, and with an OAuth token from auth register / auth token", async () => {
      const quote = await cli(
        [
          "quote",
          "--trade",
          "plumbing",
          "--state",
          "TX",
          "--city",
          "Austin",
          "--urgency",
          "urgent",
          "--nte-cents",
          "90000",
        ],
        { DISPATCH_API_KEY: key },
      );
      assert.equal(quote.code, 0, quote.stderr);
      assert.equal(typeof quote.json().estimated_cost_cents, "number");
      const client = (await cli(["auth", "register", "--client-name", "cli-e2e"])).json();
      const token = await cli([
        "auth",
        "token",
        "--client-id",
        client.client_id,
        "--client-secret",
        client.client_secret,
      ]);
      assert.equal(token.code, 0, token.stderr);
      assert.equal(
        (await cli(["quote", "--trade", "hvac", "--state", "FL", "--token", token.json().access_token])).code,
        0,
      );
      const paid = await cli([
        "order",
        "--trade",
        "hvac",
        "--state",
        "FL",
        "--description",
        "No heat.",
        "--token",
        token.json().access_token,
      ]);
      assert.equal(paid.code, 5, "402 exits 5");
    });

    it("order --quote-id keeps the quote's contractor and price; a quote of another state exits 8 (422)", async () => {
      const env = { DISPATCH_API_KEY: key };
      const quote = (await cli(["quote", "--trade", "locksmith", "--state", "NY", "--city", "Buffalo"], env)).json();
      const job = ["--trade", "locksmith", "--description", "Locked out.", "--quote-id", quote.quote_id];
      const order = await cli(["order", "--state", "NY", ...job], env);
      assert.equal(order.code, 0, order.stderr);
      const summary = order.json().order;
      assert.deepEqual(
        [summary.quote_id, summary.assigned_contractor_ref, summary.quoted_cost_cents],
        [quote.quote_id, quote.availability.best_match_ref, quote.estimated_cost_cents],
      );
      const mismatch = await cli(["order", "--state", "NJ", ...job], env);
      assert.equal(mismatch.code, 8, mismatch.stderr);
      assert.match(mismatch.stderr, /quote_mismatch|differs from quote/);
    });

    it("order, orders get, admin orders event, admin webhook-secret, webhooks secret / rotate", async () => {
      const order = await cli(
        [
          "order",
          "--trade",
          "electrical",
          "--state",
          "CA",
          "--description",
          "Breaker trips.",
          "--reference-id",
          "cli-e2e-1",
        ],
        { DISPATCH_API_KEY: key },
      );
      assert.equal(order.code, 0, order.stderr);
      ({ seal } = order.json());
      orderId = order.json().order.id;
      assert.ok(!order.stderr.includes("next:"), order.stderr); // hints only at a terminal
      assert.equal((await cli(["orders", "get", orderId], { DISPATCH_API_KEY: key })).json().id, orderId);
      const event = await cli(
        ["admin", "orders", "event", orderId, "--status", "dispatched", "--note", "crew assigned"],
        admin,
      );
      assert.equal(event.json().status, "dispatched");
      const secret = (await cli(["admin", "webhook-secret", "acme-cli", "--environment", "test"], admin)).json().secret;
      assert.match(secret, /^whsec_/);
      assert.equal((await cli(["webhooks", "secret"], { DISPATCH_API_KEY: key })).json().secret, secret);
      const rotated = (await cli(["webhooks", "rotate"], { DISPATCH_API_KEY: key })).json();
      assert.notEqual(rotated.secret, secret);
      assert.ok(Date.parse(rotated.previous_expires_at) > Date.now(), rotated.previous_expires_at);
      assert.equal((await cli(["webhooks", "secret"], { DISPATCH_API_KEY: key })).json().secret, rotated.secret);
      const missing = await cli(["orders", "get", "ord_00000000000000000000000000"], { DISPATCH_API_KEY: key });
      assert.equal(missing.code, 6, missing.stderr);
      assert.ok(oneLine(missing.stderr));
    });

    it("attest verify (offline, against the served key) and audit list", async () => {
      const logKey = (await (await fetch(`${t.url}/api/attest/key`)).text()).trim();
      let verified = await cli(["attest", "verify", seal, "--key", logKey]);
      // The sequencer integrates records at most every second: a fresh seal is pending until then.
      for (let i = 0; i < 20 && verified.code !== 0 && verified.stderr.includes("pending"); i++) {
        await sleep(250);
        verified = await cli(["attest", "verify", seal, "--key", logKey]);
      }
      assert.equal(verified.code, 0, verified.stderr);
      assert.equal(verified.json().status, "valid");
      assert.equal(verified.json().verified_offline, true);
      const records = await cli(["audit", "list", "--limit", "5"], { DISPATCH_API_KEY: key });
      assert.equal(records.code, 0, records.stderr);
      assert.ok(records.json().items.length > 0);
    });

    it("probe refuses a loopback storefront with exit 8", async () => {
      const run = await cli(["probe", "http://127.0.0.1/"]);
      assert.equal(run.code, 8, run.stderr);
      assert.ok(oneLine(run.stderr));
    });

    it("mcp tools / mcp call and a2a call", async () => {
      const tools = await cli(["mcp", "tools"], { DISPATCH_API_KEY: key });
      assert.deepEqual((tools.json().tools as { name: string }[]).map((x) => x.name).sort(), [
        "dispatch.approve_price_revision",
        "dispatch.cancel_order",
        "dispatch.decline_price_revision",
        "dispatch.evals",
        "dispatch.index",
        "dispatch.order",
        "dispatch.order_status",
        "dispatch.quote",
        "dispatch.reschedule_order",
      ]);
      const call = await cli(["mcp", "call", "dispatch.index"], { DISPATCH_API_KEY: key });
      assert.equal(call.code, 0, call.stderr);
      const a2a = await cli([
        "a2a",
        "call",
        "--method",
        "SendMessage",
        "--params",
        '{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"data":{"skill":"dispatch.index","input":{}}}]}}',
      ]);
      assert.equal(a2a.code, 0, a2a.stderr);
      assert.ok(a2a.json().result);
    });

    it("admin contractors create / list / update", async () => {
      const created = await cli(
        [
          "admin",
          "contractors",
          "create",
          "--name",
          "CLI Plumbing",
          "--trades",
          "plumbing",
          "--hourly-rate-cents",
          "9000",
          "--base-response-minutes",
          "120",
          "--data",
          '{"service_areas":[{"state":"TX"}]}',
        ],
        admin,
      );
      assert.equal(created.code, 0, created.stderr);
      const id = created.json().id;
      assert.ok(
        (await cli(["admin", "contractors", "list", "--trade", "plumbing", "--state", "TX"], admin)).json().items
          .length > 0,
      );
      assert.equal((await cli(["admin", "contractors", "update", id, "--no-active"], admin)).json().active, false);
    });

    it("orders list, events, sandbox advance, orders reschedule, orders cancel", async () => {
      const env = { DISPATCH_API_KEY: key };
      const listed = await cli(["orders", "list", "--limit", "10"], env);
      assert.ok(
        listed.json().items.some((o: { id: string }) => o.id === orderId),
        listed.stderr,
      );
      assert.ok((await cli(["events", "list"], env)).json().items.length > 0);
      assert.ok((await cli(["orders", "events", orderId], env)).json().items.length > 0);
      const advanced = await cli(["sandbox", "advance", orderId], env);
      assert.equal(advanced.code, 0, advanced.stderr);
      // the window it has (any other depends on the contractor's calendar): the same order back, exit 0
      const { start, end } = advanced.json().arrival_window as { start: string; end: string };
      const kept = await cli(["orders", "reschedule", orderId, "--start", start, "--end", end], env);
      assert.equal(kept.code, 0, kept.stderr);
      assert.deepEqual(kept.json().arrival_window, { start, end });
      const cancelled = await cli(["orders", "cancel", orderId, "--reason", "customer_request"], env);
      assert.equal(cancelled.code, 0, cancelled.stderr);
      assert.equal(cancelled.json().status, "cancelled");
    });

    it("attest checkpoint, key and consistency; discovery protected-resource-mcp", async () => {
      const checkpoint = await cli(["attest", "checkpoint"]);
      assert.equal(checkpoint.code, 0, checkpoint.stderr);
      const size = Number(checkpoint.stdout.split("\n")[1]);
      assert.ok(size >= 1, checkpoint.stdout);
      assert.match((await cli(["attest", "key"])).stdout, /\+[0-9a-f]{8}\+/);
      const proof = await cli(["attest", "consistency", "--first", "1", "--second", String(size)]);
      assert.equal(proof.code, 0, proof.stderr);
      assert.equal(proof.json().second, size);
      const metadata = await cli(["discovery", "protected-resource-mcp"]);
      assert.match(metadata.json().resource, /\/api\/mcp$/);
    });

    it("webhooks deliveries (--paginate, --order-id) and webhooks redeliver", async () => {
      const env = { DISPATCH_API_KEY: key };
      const port = await freePort();
      const receiver = await startReceiver(port);
      try {
        const orderIds: string[] = [];
        const eventsOf = new Map<string, number>(); // a matched order has two events (created, assigned), else one
        for (const ref of ["cli-hook-1", "cli-hook-2", "cli-hook-3"]) {
          const args = [
            "order",
            "--trade",
            "hvac",
            "--state",
            "TX",
            "--description",
            "No cooling.",
            "--reference-id",
            ref,
          ];
          const made = await cli([...args, "--callback-url", `http://127.0.0.1:${port}/hooks`], env);
          assert.equal(made.code, 0, made.stderr);
          orderIds.push(made.json().order.id);
          eventsOf.set(made.json().order.id, made.json().fulfilled ? 2 : 1);
        }
        const total = [...eventsOf.values()].reduce((a, b) => a + b, 0);
        await until(() => receiver.deliveries.length === total);
        const all = await cli(["webhooks", "deliveries", "--limit", "1", "--paginate"], env);
        assert.equal(all.code, 0, all.stderr);
        const items = all.json() as { id: string; order_id: string; state: string }[];
        assert.deepEqual(
          items.map((d) => d.order_id),
          [...orderIds].reverse().flatMap((id) => Array.from({ length: eventsOf.get(id)! }, () => id)),
        );
        await until(
          async () =>
            ((await cli(["webhooks", "deliveries", "--state", "delivered"], env)).json().items as unknown[]).length ===
            total,
        );
        const one = await cli(["webhooks", "deliveries", "--order-id", orderIds[0]], env);
        const first = items.at(-1)!; // the first order's order.created
        assert.deepEqual(
          one.json().items.map((d: { id: string }) => d.id),
          items.filter((d) => d.order_id === orderIds[0]).map((d) => d.id),
        );
        const redelivered = await cli(["webhooks", "redeliver", first.id], env);
        assert.equal(redelivered.code, 0, redelivered.stderr);
        assert.deepEqual([redelivered.json().id, redelivered.json().state], [first.id, "pending"]);
        await until(() => receiver.deliveries.length === total + 1);
        assert.equal(receiver.deliveries[total].headers["webhook-id"], receiver.deliveries[0].headers["webhook-id"]);
        const missing = await cli(["webhooks", "redeliver", "dlv_999999999"], env);
        assert.equal(missing.code, 6, missing.stderr);
      } finally {
        await receiver.stop();
      }
    });

    it("admin contractors key, then offers list, decline and accept, jobs list, reschedule, status and revise as the contractor; orders revisions decline and approve as the customer", async () => {
      /** A new order and a contractor key of the contractor it is offered to, both through the CLI. */
      const offered = async (ref: string) => {
        const args = ["order", "--trade", "electrical", "--state", "TX", "--description", "No power."];
        const order = (await cli([...args, "--reference-id", ref], { DISPATCH_API_KEY: key })).json().order as {
          id: string;
          assigned_contractor_ref: string;
        };
        const pool = await cli(["admin", "contractors", "list", "--trade", "electrical", "--state", "TX"], admin);
        const holder = (pool.json().items as { id: string; ref: string }[]).find(
          (c) => c.ref === order.assigned_contractor_ref,
        )!;
        const issued = await cli(["admin", "contractors", "key", holder.id, "--environment", "test"], admin);
        assert.equal(issued.code, 0, issued.stderr);
        const env = { DISPATCH_API_KEY: issued.json().key as string };
        const listed = await cli(["offers", "list", "--status", "offered"], env);
        assert.equal(listed.code, 0, listed.stderr);
        const offer = (listed.json().items as { id: string; job: { order_id: string } }[]).find(
          (o) => o.job.order_id === order.id,
        )!;
        return { offer, env };
      };
      const declining = await offered("cli-offer-1");
      const declined = await cli(["offers", "decline", declining.offer.id, "--reason", "no_capacity"], declining.env);
      assert.equal(declined.code, 0, declined.stderr);
      assert.equal(declined.json().status, "declined");
      const accepting = await offered("cli-offer-2");
      const accepted = await cli(["offers", "accept", accepting.offer.id], accepting.env);
      assert.equal(accepted.code, 0, accepted.stderr);
      assert.equal(accepted.json().job.status, "dispatched");
      const again = await cli(["offers", "accept", accepting.offer.id], accepting.env);
      assert.equal(again.code, 7, again.stderr); // 409 offer_closed
      const jobs = await cli(["jobs", "list"], accepting.env);
      assert.deepEqual(
        (jobs.json().items as { job: { order_id: string } }[]).map((j) => j.job.order_id),
        [accepting.offer.job.order_id],
      );
      // the window it holds: the same job back, exit 0; then one its own calendar lists (jobs windows)
      const window = accepted.json().job.arrival_window as { start: string; end: string };
      const move = ["jobs", "reschedule", accepting.offer.job.order_id, "--start", window.start, "--end", window.end];
      const kept = await cli(move, accepting.env);
      assert.equal(kept.code, 0, kept.stderr);
      assert.deepEqual(kept.json().job.arrival_window, window);
      const open = await cli(["jobs", "windows", accepting.offer.job.order_id], accepting.env);
      assert.equal(open.code, 0, open.stderr);
      assert.deepEqual(open.json().arrival_window, window);
      const later = (open.json().windows as { start: string; end: string }[]).at(-1)!;
      const moved = await cli(
        ["jobs", "reschedule", accepting.offer.job.order_id, "--window", `${later.start}/${later.end}`],
        accepting.env,
      );
      assert.equal(moved.code, 0, moved.stderr);
      assert.deepEqual(moved.json().job.arrival_window, later);
      const job = ["jobs", "status", accepting.offer.job.order_id, "--status"];
      const eta = new Date(now() + 30 * 60_000).toISOString();
      const report = async (args: string[]) => {
        const reported = await cli(args, accepting.env);
        assert.equal(reported.code, 0, reported.stderr);
        assert.equal(reported.json().job.status, args[4]);
      };
      await report([...job, "en_route", "--estimated-arrival-at", eta]);
      await report([...job, "on_site"]);
      // on site, the contractor asks for more; the customer declines, then approves a second ask (the NTE becomes it)
      const held = accepted.json().job as { order_id: string; quoted_cost_cents: number };
      const revise = (amount: number) =>
        cli(
          ["jobs", "revise", held.order_id, "--amount-cents", String(amount), "--reason", "Corroded valve."],
          accepting.env,
        );
      const customer = { DISPATCH_API_KEY: key };
      const first = await revise(held.quoted_cost_cents + 10_000);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.json().status, "pending");
      const declinedRevision = await cli(["orders", "revisions", "decline", held.order_id, first.json().id], customer);
      assert.equal(declinedRevision.code, 0, declinedRevision.stderr);
      assert.equal(declinedRevision.json().price_revision.status, "declined");
      const second = await revise(held.quoted_cost_cents + 20_000);
      assert.equal(second.code, 0, second.stderr);
      const approved = await cli(["orders", "revisions", "approve", held.order_id, second.json().id], customer);
      assert.equal(approved.code, 0, approved.stderr);
      assert.equal(approved.json().nte_cents, held.quoted_cost_cents + 20_000);
      const twice = await cli(["orders", "revisions", "approve", held.order_id, second.json().id], customer);
      assert.equal(twice.code, 7, twice.stderr); // 409 price_revision_resolved
      // both answers reach the contractor's own feed (jobs events), once numbered by the feed's sequencer
      const resolved = async () => {
        const feed = await cli(["jobs", "events", "--limit", "100"], accepting.env);
        assert.equal(feed.code, 0, feed.stderr);
        return (feed.json().items as { type: string; data: { price_revision?: { id: string; status: string } } }[])
          .filter((e) => e.type === "job.price_revision_resolved")
          .map((e) => [e.data.price_revision?.id, e.data.price_revision?.status]);
      };
      let answers = await resolved();
      for (let tries = 0; answers.length < 2 && tries < 50; tries++) {
        await new Promise((done) => setTimeout(done, 200));
        answers = await resolved();
      }
      assert.deepEqual(answers, [
        [first.json().id, "declined"],
        [second.json().id, "approved"],
      ]);
      await report([...job, "completed", "--final-cost-cents", "12000", "--note", "Breaker replaced."]);
      const late = await cli([...job, "on_site"], accepting.env);
      assert.equal(late.code, 7, late.stderr); // 409 invalid_transition: the job is completed
      const refused = await cli(["orders", "list"], accepting.env);
      assert.equal(refused.code, 12, refused.stderr); // 403 insufficient_scope: a contractor key is no customer's
      // one line: which kind of key it is and the commands it fits (from the problem's key_kind)
      const asContractor = JSON.parse(refused.stderr).error;
      assert.equal(asContractor.body.key_kind, "contractor");
      assert.equal(
        asContractor.message.replace(/ \(request \S+\)$/, ""),
        "403 Forbidden: this is a contractor key: use 'dispatch offers' / 'dispatch jobs'",
      );
      const customerOnJobs = await runCli(["jobs", "list", "--base-url", t.url], { env: customer });
      assert.equal(customerOnJobs.code, 12, customerOnJobs.stderr);
      assert.match(
        customerOnJobs.stderr,
        /^dispatch: 403 Forbidden: this is a customer key: use 'dispatch quote' \/ 'dispatch order' \/ 'dispatch orders'; a contractor key comes from an operator \('dispatch admin contractors key'\) \(request \S+\)\n$/,
      );
    });

    it("sandbox clock get and advance (frozen, then moved), then sandbox reset empties the key's sandbox and unfreezes its clock; admin metrics prints the Prometheus text", async () => {
      const env = { DISPATCH_API_KEY: key };
      const running = await cli(["sandbox", "clock", "get"], env);
      assert.equal(running.code, 0, running.stderr);
      assert.equal(running.json().frozen, false);
      const frozen = await cli(["sandbox", "clock", "advance", "0s"], env);
      assert.equal(frozen.json().frozen, true, frozen.stderr);
      const advanced = await cli(["sandbox", "clock", "advance", "2h"], env);
      assert.equal(advanced.code, 0, advanced.stderr);
      const moved = Date.parse(advanced.json().now as string) - Date.parse(frozen.json().now as string);
      assert.equal(moved, 2 * 3_600_000);
      const reset = await cli(["sandbox", "reset"], env);
      assert.equal(reset.code, 0, reset.stderr);
      assert.ok(reset.json().removed.orders >= 1, reset.stdout);
      const listed = await cli(["orders", "list"], { DISPATCH_API_KEY: key });
      assert.deepEqual(listed.json().items, []);
      assert.equal((await cli(["sandbox", "clock", "get"], env)).json().frozen, false);
      const metrics = await cli(["admin", "metrics"], admin);
      assert.equal(metrics.code, 0, metrics.stderr);
      assert.match(metrics.stdout, /^# TYPE \S+ histogram$/m);
    });

    it("admin keys revoke, after which the key exits 4", async () => {
      assert.ok((await cli(["admin", "keys", "revoke", keyId], admin)).json().revoked_at);
      const refused = await cli(["quote", "--trade", "hvac", "--state", "TX"], { DISPATCH_API_KEY: key });
      assert.equal(refused.code, 4, refused.stderr);
    });

    it("covered every command of the CLI", () => {
      assert.deepEqual(
        operations.map((o) => o.command.join(" ")).filter((c) => !covered.has(c)),
        [],
      );
    });
  });
});
