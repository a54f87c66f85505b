// Every example in every `--help` runs as printed: collected from the command tree (cli/help.ts examplesOf), each
// runs against a real server, a test key in the environment and the ids it names ("$ORDER_ID" …) freshly made for
// it. An example that stops working fails here. A line that is one `dispatch` command of plain words has bash expand
// its words and runs them in this process (cli/index.ts runCli): a child Node process per example cost most of this
// suite's time and tells nothing the bin's own suites do not. A line whose shell does more (pipes, redirections,
// lists, process substitution) and the live commands driven and stopped by signal run as printed under bash with
// the built `dispatch` on PATH.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import dns from "node:dns";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Command } from "commander";
import { examplesOf } from "../../cli/help.js";
import { runCli } from "../../cli/index.js";
import { resetDeprecationWarning } from "../../sdk/deprecation.js";
import { buildProgram } from "../../cli/program.js";
import { orderRequest } from "../fixtures/requests.js";
import { startReceiver } from "../fixtures/orders.js";
import { freePort } from "../../mocks/prism.js";
import { adminToken, startTestServer, type TestServer } from "../helpers/server.js";
import { untilValue } from "../helpers/wait.js";
import { bin } from "./run-cli.js";
import { now } from "../../server/services/shared/clock.js";

interface Example {
  command: string;
  line: string;
}

/** Every example of every command, with the command's words. */
export function collectExamples(root: Command, path: string[] = []): Example[] {
  const own = examplesOf(root).map((line) => ({ command: path.join(" "), line }));
  return [...own, ...root.commands.flatMap((c) => collectExamples(c, [...path, c.name()]))];
}

// The examples name storefronts and callback hosts under example.com; this resolver answers them with loopback in
// this process (the server's), so no query leaves the machine and the probe meets a refused port, as a dead shop.
function resolveExampleHostsLocally(): () => void {
  const real = dns.lookup;
  const fake = ((host: string, options: unknown, callback?: (...args: unknown[]) => void) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all;
    if (!/(^|\.)example\.com$/.test(host)) {
      (real as (...a: unknown[]) => void)(host, options, callback);
      return;
    }
    if (all) cb(null, [{ address: "127.0.0.1", family: 4 }]);
    else cb(null, "127.0.0.1", 4);
  }) as typeof dns.lookup;
  dns.lookup = fake;
  syncBuiltinESMExports();
  return () => {
    dns.lookup = real;
    syncBuiltinESMExports();
  };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one example line with bash; `drive` may act while it runs (a live command) and stop it. */
function runExample(
  line: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  drive?: (child: { stdout: () => string; stderr: () => string; stop: () => void }) => Promise<void>,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", `set -euo pipefail\n${line}`], { env, cwd, detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const stop = () => {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
    };
    const timer = setTimeout(stop, 60_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    drive?.({ stdout: () => stdout, stderr: () => stderr, stop }).catch((error: unknown) => {
      stop();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/** One `dispatch` command of words, quotes and $VARIABLES only: bash's part is expanding its words. */
const plainCommand = (line: string) => /^dispatch\s/.test(line) && !/[|&;<>`#]|\$\(/.test(line);

/** The arguments bash passes to `dispatch` for `line`, expanded in `env`. */
async function wordsOf(line: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const script = `set -euo pipefail\ndispatch() { printf '%s\\0' "$@"; }\n${line}`;
  const { stdout } = await promisify(execFile)("bash", ["-c", script], { env });
  return stdout.split("\0").slice(0, -1); // each word ends in NUL
}

/** Runs a plain `dispatch` line in this process, as one fresh invocation of the bin. */
async function runInProcess(line: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const words = await wordsOf(line, env);
  resetDeprecationWarning(); // the SDK says it once per process, and each run stands for one process
  return runCli(words, { env });
}

/** Polls `probe` (every 100 ms, up to 20 s) until it answers. */
const waitFor = <T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> =>
  untilValue(probe, { timeoutMs: 20_000, intervalMs: 100, message: what });

describe("cli --help examples", function () {
  this.timeout(120_000);
  const examples = collectExamples(buildProgram("0.0.0", () => Promise.resolve()));
  let t: TestServer;
  let key: string;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let restoreDns: () => void;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let receiverUrl: string;

  const api = async (method: string, path: string, body?: unknown, admin = false) => {
    const response = await fetch(t.url + path, {
      method,
      headers: {
        "content-type": "application/json",
        ...(admin ? { authorization: `Bearer ${adminToken}` } : { "x-api-key": key }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as Record<string, unknown>;
  };
  const newOrder = async (extra: Record<string, unknown> = {}) =>
    (
      (await api("POST", "/api/dispatch/v1/order", { ...orderRequest, reference_id: undefined, ...extra })) as {
        order: { id: string };
      }
    ).order.id;

  /** The shell variables an example names, each made fresh for the example that uses it. */
  const variables: Record<string, (command: string) => Promise<string>> = {
    DISPATCH_API_KEY: () => Promise.resolve(key),
    ORDER_ID: async (command) => {
      const id = await newOrder();
      // Completing an order (the `admin orders event` example) needs it on site first.
      if (command === "admin orders event")
        await api("POST", `/api/dispatch/v1/sandbox/orders/${id}/advance`, { to: "on_site" });
      return id;
    },
    DELIVERY_ID: async () => {
      const id = await newOrder({ callback_url: `${receiverUrl}/hooks` });
      return waitFor("a webhook delivery", async () => {
        const page = (await api("GET", `/api/dispatch/v1/webhooks/deliveries?order_id=${id}`)) as {
          items: { id: string }[];
        };
        return page.items[0]?.id;
      });
    },
    SEAL: async () => {
      const { seal } = (await api("POST", "/api/dispatch/v1/quote", {
        trade: "plumbing",
        location: { state: "TX" },
      })) as { seal: string };
      await waitFor("the seal in a checkpoint", async () =>
        ((await fetch(`${t.url}/api/attest/verify/${seal}`).then((r) => r.json())) as { status: string }).status ===
        "valid"
          ? true
          : undefined,
      );
      return seal;
    },
    KEY_ID: async () => (await t.issueKey({ account: "acme-throwaway" })).id,
    CONTRACTOR_ID: async () =>
      (
        await api(
          "POST",
          "/api/admin/v1/contractors",
          {
            name: "Example Co.",
            trades: ["hvac"],
            service_areas: [{ state: "TX" }],
            hourly_rate_cents: 9000,
            base_response_minutes: 120,
          },
          true,
        )
      ).id as string,
    LOG_KEY: async () => (await fetch(`${t.url}/api/attest/key`)).text().then((k) => k.trim()),
    DISPATCH_WEBHOOK_SECRET: async () => (await api("GET", "/api/dispatch/v1/webhooks/secret")).secret as string,
  };

  /** CLIENT_ID and CLIENT_SECRET come as a pair from one registration. */
  async function variablesFor(example: Example): Promise<Record<string, string>> {
    const names = [...new Set([...example.line.matchAll(/\$\{?([A-Z_]+)/g)].map((m) => m[1]))];
    const values: Record<string, string> = {};
    if (example.command === "orders reschedule") {
      // The example moves its order to an urgent quote's last window: an order booked in the window before it goes
      // to the city's shop (rank order), which has seats left there for the three examples (the examples before
      // them fill the pool's earliest windows, so an order of its own could land with the one-seat statewide crew).
      const quote = (await api("POST", "/api/dispatch/v1/quote", {
        trade: "plumbing",
        location: { state: "TX" },
        urgency: "urgent",
      })) as { arrival_windows: { start: string; end: string }[] };
      values.ORDER_ID = await newOrder({ arrival_window: quote.arrival_windows.at(-2) });
    }
    if (names.includes("OFFER_ID") || example.command.startsWith("offers ")) {
      // the offers commands run as the contractor: the open offer of a fresh order, and a key of its contractor
      const id = await newOrder();
      const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const issued = await api(
        "POST",
        `/api/admin/v1/contractors/${offer!.contractor_id}/keys`,
        { environment: "test" },
        true,
      );
      Object.assign(values, { OFFER_ID: offer!.id, DISPATCH_API_KEY: issued.key as string });
    }
    if (names.includes("JOB_ID") || example.command.startsWith("jobs ")) {
      // the jobs commands run as the contractor holding a job: a fresh order's offer, accepted with its key
      const id = await newOrder();
      const offer = await t.app.services.db("order_offers").where({ order_id: id, status: "offered" }).first();
      const body = { environment: "test" };
      const issued = await api("POST", `/api/admin/v1/contractors/${offer!.contractor_id}/keys`, body, true);
      const accepted = await fetch(`${t.url}/api/dispatch/v1/contractor/offers/${offer!.id}/accept`, {
        method: "POST",
        headers: { "x-api-key": issued.key as string },
      });
      assert.equal(accepted.status, 200, await accepted.text());
      const eta = new Date(now() + 30 * 60_000).toISOString();
      Object.assign(values, { JOB_ID: id, ETA: eta, DISPATCH_API_KEY: issued.key as string });
    }
    if (example.command.startsWith("sandbox clock") || example.line.includes("order.escalated")) {
      // a clock advanced stays frozen (so does the one `trigger order.escalated` walks): these run on an account of
      // their own, so the other examples' test orders keep walking on the wall clock
      Object.assign(values, { DISPATCH_API_KEY: (await t.issueKey({ account: "acme-clock" })).key });
    }
    if (names.includes("REVISION_ID")) {
      // an order held over a 1-cent NTE comes with the pending price revision the customer answers
      const id = await newOrder({ nte_cents: 1 });
      const order = (await api("GET", `/api/dispatch/v1/orders/${id}`)) as { price_revision: { id: string } };
      Object.assign(values, { ORDER_ID: id, REVISION_ID: order.price_revision.id });
    }
    if (names.includes("CLIENT_ID")) {
      const client = await api("POST", "/api/mcp/oauth/register", {});
      Object.assign(values, { CLIENT_ID: client.client_id, CLIENT_SECRET: client.client_secret });
    }
    for (const name of names.filter((n) => !(n in values))) {
      assert.ok(variables[name], `the example "${example.line}" uses $${name}, which this suite does not provide`);
      values[name] = await variables[name](example.command);
    }
    return values;
  }

  before(async () => {
    restoreDns = resolveExampleHostsLocally();
    const port = await freePort();
    receiver = await startReceiver(port);
    receiverUrl = `http://127.0.0.1:${String(port)}`;
    t = await startTestServer(undefined, {
      WEBHOOK_ALLOW_PRIVATE: "true",
      PROBE_ALLOW_PRIVATE: "true",
      AUDIT_BATCH_MS: "50",
      WEBHOOK_POLL_MS: "50",
    });
    key = (await t.issueKey({ account: "acme" })).key;
    dir = mkdtempSync(join(tmpdir(), "dispatch-examples-"));
    mkdirSync(join(dir, "bin"));
    symlinkSync(bin, join(dir, "bin", "dispatch"));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DISPATCH_")));
    env = {
      ...inherited,
      PATH: `${join(dir, "bin")}:${process.env.PATH ?? ""}`,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      DISPATCH_BASE_URL: t.url,
      DISPATCH_API_KEY: key,
      DISPATCH_ADMIN_TOKEN: adminToken,
    };
  });
  after(async () => {
    restoreDns?.();
    await Promise.all([t?.stop(), receiver?.stop()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("takes windows from the same line: a quote's, or the contractor's job's own (jobs windows); no window variable", () => {
    const windowVariables = examples
      .filter((example) => /\$\{?WINDOW_/.test(example.line))
      .map((example) => example.command);
    assert.deepEqual(windowVariables, []);
    const reschedules = examples.filter((example) => example.command === "jobs reschedule");
    assert.ok(reschedules.length > 0 && reschedules.every((example) => example.line.includes("dispatch jobs windows")));
  });

  it("finds examples on every command that runs something", () => {
    const program = buildProgram("0.0.0", () => Promise.resolve());
    const leaves = (c: Command, path: string[]): string[] =>
      c.commands.length ? c.commands.flatMap((s) => leaves(s, [...path, s.name()])) : [path.join(" ")];
    const withExamples = new Set(examples.map((e) => e.command));
    assert.deepEqual(
      leaves(program, []).filter((c) => !withExamples.has(c)),
      [],
    );
  });

  for (const example of examples) {
    it(`runs: ${example.line}`, async () => {
      const vars = await variablesFor(example);
      const runEnv = { ...env, ...vars };
      let result: Run;
      if (example.command === "orders watch") {
        result = await runExample(example.line, runEnv, dir, async (child) => {
          await waitFor("the watch to print the order", () =>
            child.stdout().includes(vars.ORDER_ID) ? true : undefined,
          );
          await api("POST", `/api/dispatch/v1/sandbox/orders/${vars.ORDER_ID}/advance`, { to: "completed" });
        });
      } else if (example.command === "listen" && !example.line.includes("--print-secret")) {
        // forwarding or printing, it runs until stopped: one order cancelled, then its line is awaited
        result = await runExample(example.line, runEnv, dir, async (child) => {
          await waitFor("listen to be ready", () => (child.stderr().includes("ready") ? true : undefined));
          const id = await newOrder();
          await api("POST", `/api/dispatch/v1/orders/${id}/cancel`, { reason: "duplicate" });
          const forwarded = () =>
            child
              .stdout()
              .split("\n")
              .find((l) => l.includes(id) && l.includes("order.cancelled"));
          await waitFor("the cancellation forwarded", () => forwarded());
          child.stop();
        });
        assert.match(result.stdout, /order\.cancelled/, result.stderr);
        return;
      } else if (plainCommand(example.line)) result = await runInProcess(example.line, runEnv);
      else result = await runExample(example.line, runEnv, dir);
      assert.equal(result.code, 0, `exit ${String(result.code)}\nstderr: ${result.stderr}\nstdout: ${result.stdout}`);
      // A --query naming a field the answer lacks still exits 0, printing nothing: an example must select something.
      if (/\s--query\s/.test(example.line)) {
        assert.doesNotMatch(result.stderr, /matched nothing/);
        assert.notEqual(result.stdout.trim(), "", `the --query printed nothing\nstderr: ${result.stderr}`);
      }
    });
  }
});
