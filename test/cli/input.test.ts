// What `dispatch` sends: validation before sending, --data, flags, credentials and headers (recording server).
import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { oneLine, runBin, runCli, startRecorder, type Recorder } from "./run-cli.js";

const tmp = fileURLToPath(new URL(`../tmp/cli-input-${process.pid}/`, import.meta.url));
const quote = ["quote", "--trade", "plumbing", "--state", "TX"];

describe("cli", function () {
  this.timeout(30_000);
  let server: Recorder;
  const send = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
    runCli([...args, "--base-url", server.url], {
      ...options,
      env: { DISPATCH_API_KEY: "dispatch_test_in", ...options.env },
    });
  const lastBody = () => JSON.parse(server.requests.at(-1)!.body);

  before(async () => {
    server = await startRecorder();
    await mkdir(tmp, { recursive: true });
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.answer = { status: 200, body: { ok: true } };
  });
  after(async () => {
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  describe("validation before sending", () => {
    const cases: [string, string[], RegExp][] = [
      [
        "a bad --urgency",
        [...quote, "--urgency", "asap"],
        /--urgency must be one of emergency, urgent, routine, scheduled \(got "asap"\)/,
      ],
      ["a --state of length 3", ["quote", "--trade", "hvac", "--state", "TEX"], /--state must be one of AL, AK/],
      ["a --state that is no US state", ["quote", "--trade", "hvac", "--state", "ZZ"], /--state must be one of AL, AK/],
      [
        "an order for --state ZZ",
        ["order", "--trade", "hvac", "--state", "ZZ", "--description", "x"],
        /--state must be one of/,
      ],
      ["a --zip that is no ZIP", [...quote, "--zip", "abcdefg"], /--zip must be a 5-digit ZIP or ZIP\+4/],
      ["--nte-cents above its maximum", [...quote, "--nte-cents", "2147483648"], /--nte-cents must be <= 100000000/],
      ["--limit above its maximum", ["audit", "list", "--limit", "500"], /--limit must be <= 200/],
      [
        "a control character in free text",
        [...quote, "--description", "a\u0001b"],
        /--description must be text without control characters/,
      ],
      ["a missing required flag", ["quote", "--state", "TX"], /missing required --trade/],
      ["a bad enum value", ["quote", "--trade", "gardening", "--state", "TX"], /--trade must be one of plumbing/],
      ["a non-integer --nte-cents", [...quote, "--nte-cents", "12.5"], /--nte-cents must be an integer/],
      ["--nte-cents below its minimum", [...quote, "--nte-cents", "0"], /--nte-cents must be >= 1/],
      ["a too long --zip", [...quote, "--zip", "12345678901"], /--zip must be at most 10 characters/],
      // one character, not "1 characters"; a long value is not printed back whole
      [
        "an empty --description",
        ["order", "--trade", "hvac", "--state", "TX", "--description", ""],
        /--description must be at least 1 character \(got ""\)$/m,
      ],
      [
        "a --description of 5,001 characters",
        ["order", "--trade", "hvac", "--state", "TX", "--description", `${"é".repeat(4000)}${"a".repeat(1001)}`],
        /^dispatch: --description must be at most 5000 characters \(got "é{59}…" \(5001 characters\)\)$/m,
      ],
      [
        "an out-of-bounds value in --data",
        ["quote", "--data", '{"trade":"hvac","location":{"state":"Texas"}}'],
        /--state must be one of/,
      ],
      // Keywords the contract states beyond a flag's own bounds: refused here as the server would refuse them.
      [
        "a --data field the contract does not have",
        [...quote, "--data", '{"colour":"red"}'],
        /--data field colour is not a field of this request/,
      ],
      [
        "a --data value of the wrong type",
        ["quote", "--trade", "hvac", "--data", '{"location":{"state":"TX","zip":78701}}'],
        /--zip must be a string \(got 78701\)/,
      ],
      [
        "a repeated value of a list flag",
        ["admin", "keys", "create", "--account", "a", "--environment", "test", "--scopes", "quote,quote"],
        /--scopes must not repeat a value/,
      ],
      ["an unknown option", [...quote, "--trde", "x"], /unknown option '--trde'/],
      ["a missing positional", ["orders", "get"], /missing required argument 'id'/],
      ["an unknown --output", [...quote, "--output", "xml"], /--output must be one of json, ndjson, table, yaml/],
      ["a malformed --header", [...quote, "--header", "no-colon"], /--header must look like 'Name: value'/],
    ];
    for (const [what, args, message] of cases) {
      it(`exits 2 on ${what}, one line on stderr, no request`, async () => {
        const run = await send(args);
        assert.equal(run.code, 2, run.stderr);
        assert.ok(oneLine(run.stderr), run.stderr);
        assert.match(run.stderr, message);
        assert.equal(run.stdout, "");
        assert.equal(server.requests.length, 0);
      });
    }
  });

  describe("quote", () => {
    it("flattens flags into the JSON body", async () => {
      const run = await send([
        ...quote,
        "--zip",
        "78701",
        "--city",
        "Austin",
        "--urgency",
        "urgent",
        "--nte-cents",
        "45000",
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(lastBody(), {
        trade: "plumbing",
        location: { state: "TX", zip: "78701", city: "Austin" },
        urgency: "urgent",
        nte_cents: 45000,
      });
      assert.equal(server.requests[0].method, "POST");
      assert.equal(server.requests[0].url, "/api/dispatch/v1/quote");
    });

    it("reads --data @file and lets flags override its fields", async () => {
      await writeFile(
        `${tmp}quote.json`,
        JSON.stringify({ trade: "hvac", location: { state: "CA", city: "Fresno" }, urgency: "routine" }),
      );
      const run = await send(["quote", "--data", `@${tmp}quote.json`, "--state", "NV", "--urgency", "emergency"]);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(lastBody(), { trade: "hvac", location: { state: "NV", city: "Fresno" }, urgency: "emergency" });
    });

    it("reads --data - from stdin (the bin, stdin piped)", async () => {
      const run = await runBin(["quote", "--data", "-", "--base-url", server.url], {
        env: { DISPATCH_API_KEY: "dispatch_test_in" },
        input: '{"trade":"roofing","location":{"state":"FL"}}',
      });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(lastBody(), { trade: "roofing", location: { state: "FL" } });
    });

    for (const [what, data, message] of [
      ["invalid JSON", "{nope", /--data is not valid JSON/],
      ["a JSON array", "[1]", /--data must be a JSON object/],
      ["a missing file", "@/no/such/file.json", /--data: cannot read \/no\/such\/file.json \(ENOENT\)/],
    ] as const) {
      it(`exits 2 when --data is ${what}`, async () => {
        const run = await send(["quote", "--data", data]);
        assert.equal(run.code, 2);
        assert.match(run.stderr, message);
        assert.equal(server.requests.length, 0);
      });
    }
  });

  describe("credentials and headers", () => {
    it("sends x-api-key, a dispatch-cli User-Agent and extra --header values", async () => {
      await send([...quote, "-H", "Prefer: code=200", "--header", "X-Trace: abc"]);
      const { headers } = server.requests[0];
      assert.equal(headers["x-api-key"], "dispatch_test_in");
      assert.match(headers["user-agent"]!, /^dispatch-cli\/\d+\.\d+\.\d+ node\//);
      assert.deepEqual([headers.prefer, headers["x-trace"]], ["code=200", "abc"]);
    });

    it("sends --token as a bearer when there is no API key", async () => {
      await runCli([...quote, "--base-url", server.url, "--token", "dat_tok"]);
      assert.equal(server.requests[0].headers.authorization, "Bearer dat_tok");
    });

    it("sends the admin token as a bearer to admin commands", async () => {
      await send(["admin", "keys", "list", "--admin-token", "adm-1", "--limit", "5"]);
      const [request] = server.requests;
      assert.equal(request.headers.authorization, "Bearer adm-1");
      assert.equal(request.headers["x-api-key"], undefined);
      assert.equal(request.url, "/api/admin/v1/keys?limit=5");
    });

    it("sends the API key as a bearer to mcp with a JSON-RPC tools/list", async () => {
      server.answer = { status: 200, body: { jsonrpc: "2.0", id: 1, result: { tools: [] } } };
      const run = await send(["mcp", "tools"]);
      assert.deepEqual(JSON.parse(run.stdout), { tools: [] });
      assert.equal(server.requests[0].headers.authorization, "Bearer dispatch_test_in");
      assert.deepEqual(lastBody(), { jsonrpc: "2.0", id: 1, method: "tools/list" });
    });
  });

  describe("mcp call", () => {
    it("sends tools/call with --args and exits 8 on a tool error", async () => {
      server.answer = {
        status: 200,
        body: {
          jsonrpc: "2.0",
          id: 1,
          result: { isError: true, content: [{ type: "text", text: "missing API key" }] },
        },
      };
      const run = await send(["mcp", "call", "dispatch.quote", "--args", '{"trade":"hvac"}']);
      assert.deepEqual(lastBody(), {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "dispatch.quote", arguments: { trade: "hvac" } },
      });
      assert.equal(run.code, 8);
      assert.match(run.stderr, /tool dispatch.quote failed: missing API key/);
    });

    it("exits 5 on the JSON-RPC entitlement error -32002", async () => {
      server.answer = {
        status: 200,
        body: { jsonrpc: "2.0", id: 1, error: { code: -32002, message: "not entitled to order" } },
      };
      const run = await send(["mcp", "call", "dispatch.order"]);
      assert.equal(run.code, 5);
      assert.ok(oneLine(run.stderr));
    });
  });

  describe("auth token", () => {
    it("posts a form-encoded client-credentials grant", async () => {
      await runCli(["auth", "token", "--client-id", "dcl_1", "--client-secret", "dcs 2", "--base-url", server.url]);
      const [request] = server.requests;
      assert.equal(request.headers["content-type"], "application/x-www-form-urlencoded");
      assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
        grant_type: "client_credentials",
        client_id: "dcl_1",
        client_secret: "dcs 2",
      });
    });
  });

  describe("other flag kinds", () => {
    it("takes path parameters as positionals and query flags as the query", async () => {
      await send(["orders", "get", "ord_a/b"]);
      await send(["evals", "--period", "rolling_7d"]);
      assert.deepEqual(
        server.requests.map((r) => r.url),
        ["/api/dispatch/v1/orders/ord_a%2Fb", "/api/dispatch/analytics/evals?period=rolling_7d"],
      );
    });

    it("sends booleans (--x / --no-x) and comma-separated or repeated arrays", async () => {
      await send([
        "admin",
        "contractors",
        "update",
        "ctr_1",
        "--no-active",
        "--emergency-capable",
        "--trades",
        "plumbing,hvac",
        "--trades",
        "roofing",
      ]);
      assert.deepEqual(lastBody(), { trades: ["plumbing", "hvac", "roofing"], emergency_capable: true, active: false });
      assert.equal(server.requests[0].method, "PATCH");
    });

    it("sends the Idempotency-Key header of order", async () => {
      await send(["order", ...quote.slice(1), "--description", "Leak.", "--idempotency-key", "k-1"]);
      assert.equal(server.requests[0].headers["idempotency-key"], "k-1");
    });
  });

  it("exits 1 with one line when a JSON answer cannot be parsed", async () => {
    server.answer = { status: 200, body: "{not json", raw: true };
    const run = await send(["index"]);
    assert.equal(run.code, 1);
    assert.ok(oneLine(run.stderr));
    assert.match(run.stderr, /^dispatch: unexpected error: /);
  });
});
