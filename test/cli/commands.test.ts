// Every `dispatch` command against the Prism mock: stdout is the contract's example, errors map to exit codes.
import assert from "node:assert/strict";
import { freePort, startPrism, type PrismHandle } from "../../mocks/prism.js";
import { operations } from "../../cli/generated/operations.js";
import { responseExample } from "../helpers/contract-examples.js";
import { oneLine, runCli } from "./run-cli.js";
import { operationDeprecations } from "../../server/generated/deprecations.js";

const orderId = "ord_01JD8XB3C5D7E9F1G3H5J7K9M1";

/** One invocation per operation; `pick` selects what the command prints from the example. */
const invocations: Record<string, { args: string[]; code?: string; pick?: (example: unknown) => unknown }> = {
  probeStorefront: { args: ["probe", "shop.example.com"] },
  createQuote: {
    args: [
      "quote",
      "--trade",
      "plumbing",
      "--state",
      "TX",
      "--zip",
      "78701",
      "--urgency",
      "urgent",
      "--nte-cents",
      "45000",
    ],
  },
  createEstimate: { args: ["estimate", "--trade", "electrical", "--state", "CA", "--city", "Sacramento"] },
  createOrder: {
    args: [
      "order",
      "--trade",
      "plumbing",
      "--state",
      "TX",
      "--description",
      "Leaking supply line.",
      "--reference-id",
      "acme-wo-1042",
    ],
    code: "201",
  },
  getOrder: { args: ["orders", "get", orderId] },
  listOrders: { args: ["orders", "list", "--status", "pending_dispatch", "--limit", "10"] },
  listEvents: { args: ["events", "list", "--limit", "10"] },
  getAccountWebhookSecret: { args: ["webhooks", "secret"] },
  rotateWebhookSecret: { args: ["webhooks", "rotate"] },
  listWebhookDeliveries: {
    args: ["webhooks", "deliveries", "--order-id", orderId, "--state", "dead", "--limit", "10"],
  },
  redeliverWebhookDelivery: { args: ["webhooks", "redeliver", "dlv_1207"], code: "202" },
  listOrderEvents: { args: ["orders", "events", orderId] },
  cancelOrder: { args: ["orders", "cancel", orderId, "--reason", "duplicate", "--note", "Raised twice."] },
  rescheduleOrder: {
    args: [
      "orders",
      "reschedule",
      orderId,
      "--start",
      "2026-11-24T10:00:00-06:00",
      "--end",
      "2026-11-24T12:00:00-06:00",
    ],
  },
  approvePriceRevision: { args: ["orders", "revisions", "approve", orderId, "prv_01JD8XC0A2B4C6D8E0F2G4H6J8"] },
  declinePriceRevision: { args: ["orders", "revisions", "decline", orderId, "prv_01JD8XC0A2B4C6D8E0F2G4H6J8"] },
  advanceSandboxOrder: { args: ["sandbox", "advance", orderId, "--to", "en_route"] },
  resetSandbox: { args: ["sandbox", "reset"] },
  getSandboxClock: { args: ["sandbox", "clock", "get"] },
  advanceSandboxClock: { args: ["sandbox", "clock", "advance", "2h"] },
  getEvals: { args: ["evals", "--period", "rolling_30d"] },
  getTradeIndex: { args: ["index"] },
  callMcp: { args: ["mcp", "tools"], pick: (example) => (example as { result: unknown }).result },
  registerOAuthClient: {
    args: ["auth", "register", "--client-name", "cli-test", "--grant-types", "client_credentials"],
    code: "201",
  },
  createOAuthToken: { args: ["auth", "token", "--client-id", "dcl_test", "--client-secret", "dcs_test"] },
  callA2a: {
    args: [
      "a2a",
      "call",
      "--method",
      "SendMessage",
      "--params",
      '{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"data":{"skill":"dispatch.index","input":{}}}]}}',
    ],
  },
  // Offline check of the contract's example (a real proof, signed by the getLogKey example's key).
  verifySeal: {
    args: [
      "attest",
      "verify",
      "seal_3ba0f34fa75d195075ae5e60de8ebf14bb246d168963999bb381f240138e2e67",
      "--key",
      "dispatch.example/audit+2d37ac8d+AcdQxE6hIaIRD+d/uBGUeHsq5opojteOGzqtKUQpUJCh",
    ],
    pick: (example) => {
      const e = example as { seal: string; leaf_index: number; inclusion_proof: { tree_size: number } };
      return {
        seal: e.seal,
        status: "valid",
        verified_offline: true,
        tree_size: e.inclusion_proof.tree_size,
        leaf_index: e.leaf_index,
      };
    },
  },
  getCheckpoint: { args: ["attest", "checkpoint"] },
  getLogKey: { args: ["attest", "key"] },
  getConsistencyProof: { args: ["attest", "consistency", "--first", "4", "--second", "6"] },
  listAuditRecords: { args: ["audit", "list", "--limit", "10", "--type", "order"] },
  getAgentCard: { args: ["discovery", "agent-card"] },
  getProtectedResourceMetadata: { args: ["discovery", "protected-resource"] },
  getMcpProtectedResourceMetadata: { args: ["discovery", "protected-resource-mcp"] },
  getAuthorizationServerMetadata: { args: ["discovery", "authorization-server"] },
  getCapabilityIndex: { args: ["discovery", "capabilities"] },
  getOpenApiJson: { args: ["discovery", "openapi"] },
  getOpenApiYaml: { args: ["discovery", "openapi-yaml"] },
  getHome: { args: ["discovery", "home"] },
  getDocs: { args: ["discovery", "docs"] },
  getDocsBundle: { args: ["discovery", "docs-bundle"] },
  getHealth: { args: ["health", "live"] },
  getReadiness: { args: ["health", "ready"] },
  getMetrics: { args: ["admin", "metrics"] },
  createApiKey: {
    args: [
      "admin",
      "keys",
      "create",
      "--account",
      "acme-facilities",
      "--environment",
      "live",
      "--scopes",
      "quote,order",
    ],
    code: "201",
  },
  listApiKeys: { args: ["admin", "keys", "list", "--account", "acme-facilities"] },
  revokeApiKey: { args: ["admin", "keys", "revoke", "key_01JD8XD5E7F9G1H3J5K7M9N1P3"] },
  listContractors: { args: ["admin", "contractors", "list", "--trade", "plumbing", "--state", "TX"] },
  createContractor: {
    args: [
      "admin",
      "contractors",
      "create",
      "--name",
      "Lone Star Plumbing Co.",
      "--trades",
      "plumbing",
      "--hourly-rate-cents",
      "9500",
      "--base-response-minutes",
      "180",
      "--data",
      '{"service_areas":[{"state":"TX"}]}',
    ],
    code: "201",
  },
  updateContractor: { args: ["admin", "contractors", "update", "ctr_01JD8XE6F8G0H2J4K6M8N0P2Q4", "--no-active"] },
  recordOrderEvent: {
    args: ["admin", "orders", "event", orderId, "--status", "completed", "--final-cost-cents", "41250"],
    code: "201",
  },
  getWebhookSecret: { args: ["admin", "webhook-secret", "acme-facilities"] },
  createContractorKey: {
    args: ["admin", "contractors", "key", "ctr_01JD8XE6F8G0H2J4K6M8N0P2Q4", "--environment", "live"],
    code: "201",
  },
  listContractorOffers: { args: ["offers", "list", "--status", "offered"] },
  listContractorEvents: { args: ["jobs", "events", "--limit", "10"] },
  acceptOffer: { args: ["offers", "accept", "ofr_01JD8XB4D6F8H0K2M4P6R8T0V2"] },
  declineOffer: { args: ["offers", "decline", "ofr_01JD8XB4D6F8H0K2M4P6R8T0V2", "--reason", "no_capacity"] },
  listContractorJobs: { args: ["jobs", "list", "--limit", "20"] },
  listJobWindows: { args: ["jobs", "windows", orderId] },
  updateJobStatus: {
    args: ["jobs", "status", orderId, "--status", "en_route", "--estimated-arrival-at", "2026-11-23T16:05:00Z"],
  },
  requestPriceRevision: {
    args: ["jobs", "revise", orderId, "--amount-cents", "52000", "--reason", "The shut-off valve is corroded."],
    code: "201",
  },
  rescheduleJob: {
    args: ["jobs", "reschedule", orderId, "--start", "2026-11-24T10:00:00-06:00", "--end", "2026-11-24T12:00:00-06:00"],
  },
};

/** Exit code by status, each through an operation that documents that status. */
const statusCases: { status: number; exit: number; args: string[] }[] = [
  { status: 401, exit: 4, args: invocations.createQuote.args },
  { status: 402, exit: 5, args: invocations.createOrder.args },
  { status: 403, exit: 12, args: invocations.listOrders.args },
  { status: 404, exit: 6, args: invocations.getOrder.args },
  { status: 409, exit: 7, args: invocations.createOrder.args },
  { status: 422, exit: 8, args: invocations.createQuote.args },
  { status: 400, exit: 8, args: invocations.createEstimate.args },
  { status: 429, exit: 9, args: invocations.getTradeIndex.args },
  { status: 503, exit: 10, args: invocations.getReadiness.args },
];

// `attest verify` reads none of the deprecated fields of its own request's answer, so it says nothing about them.
const deprecatedAnswers = new Set(
  Object.values(operationDeprecations)
    .map((d) => d.operationId)
    .filter((operationId) => operationId !== "verifySeal"),
);

describe("cli", function () {
  this.timeout(120_000);
  let prism: PrismHandle;
  let env: Record<string, string>;

  before(async () => {
    prism = await startPrism({ mode: "mock" });
    env = { DISPATCH_BASE_URL: prism.url, DISPATCH_API_KEY: "dispatch_test_cli", DISPATCH_ADMIN_TOKEN: "admin-cli" };
  });
  after(async () => prism?.stop());

  it("has an invocation for every operation of the command table", () => {
    assert.deepEqual(Object.keys(invocations).sort(), operations.map((o) => o.operationId).sort());
  });

  for (const spec of operations) {
    const { args, code = "200", pick = (x: unknown) => x } = invocations[spec.operationId];
    describe(spec.operationId === "callMcp" ? "mcp tools" : spec.command.join(" "), () => {
      it(`prints the ${code} example of ${spec.operationId} and exits 0`, async () => {
        const run = await runCli([...args, "--header", `Prefer: code=${code}`], { env });
        // Next-step hints are for a terminal: with stderr piped it holds diagnostics only; data stays alone on stdout.
        if (spec.operationId === "createOrder")
          // Prism answers with the contract's header examples, Idempotent-Replayed: true among them.
          assert.match(run.stderr, /^(dispatch: replayed: .*\n)?$/);
        // The mock answers the documented Deprecation header where the contract deprecates a returned field.
        else if (deprecatedAnswers.has(spec.operationId))
          assert.match(run.stderr, /^dispatch: GET .* deprecated since/);
        else assert.equal(run.stderr, "");
        assert.equal(run.code, 0);
        const example = pick(responseExample(spec.operationId, code));
        if (typeof example === "string") assert.equal(run.stdout.trimEnd(), example.trimEnd());
        else assert.deepEqual(JSON.parse(run.stdout), example);
      });
    });
  }

  describe("mcp call", () => {
    it("calls a tool and prints the JSON-RPC result", async () => {
      const run = await runCli(["mcp", "call", "dispatch.index", "--args", "{}"], { env });
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), (responseExample("callMcp", "200") as { result: unknown }).result);
    });

    it("rejects --args that are not a JSON object with exit 2", async () => {
      const run = await runCli(["mcp", "call", "dispatch.index", "--args", "[1]"], { env });
      assert.equal(run.code, 2);
      assert.ok(oneLine(run.stderr));
    });
  });

  describe("exit codes", () => {
    for (const { status, exit, args } of statusCases) {
      it(`exits ${exit} on ${status} with one line on stderr and nothing on stdout`, async () => {
        const run = await runCli([...args, "-H", `Prefer: code=${status}`], { env });
        assert.equal(run.code, exit);
        assert.equal(run.stdout, "");
        // One line, then (for a problem listing fields) one `  /pointer: message` line per invalid field.
        const [first, ...fields] = run.stderr.trimEnd().split("\n");
        assert.match(first, new RegExp(`^dispatch: ${status} `));
        const problem = status === 422 ? (responseExample("createQuote", "422") as { errors?: unknown[] }) : {};
        assert.equal(fields.length, problem.errors?.length ?? 0, run.stderr);
        for (const line of fields) assert.match(line, /^ {2}\/\S*: \S/);
      });
    }

    it("prints the error as a JSON object on stderr with --output json", async () => {
      const run = await runCli([...invocations.createQuote.args, "-H", "Prefer: code=401", "--output", "json"], {
        env,
      });
      assert.equal(run.code, 4);
      assert.ok(oneLine(run.stderr));
      const { error } = JSON.parse(run.stderr);
      const problem = responseExample("createQuote", "401") as { code: string; request_id: string; type: string };
      assert.deepEqual(
        [error.status, error.code, error.request_id, error.type, error.exit_code],
        [401, problem.code, problem.request_id, problem.type, 4],
      );
    });

    it("exits 3 when the server cannot be reached", async () => {
      const run = await runCli(["index", "--base-url", `http://127.0.0.1:${await freePort()}`]);
      assert.equal(run.code, 3);
      assert.ok(oneLine(run.stderr));
      assert.match(run.stderr, /network error: cannot reach .*ECONNREFUSED/);
    });
  });
});
