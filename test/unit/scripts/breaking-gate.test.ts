import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { compareContracts } from "../../../scripts/breaking-changes.js";
import { latestReleasedPath, releasedDir, runGate, type GateInput } from "../../../scripts/breaking-gate.js";
import { loadContract, type JsonObject } from "../../../scripts/contract.js";

type Schemas = Record<string, JsonObject & { properties: Record<string, JsonObject>; required?: string[] }>;

const released = parse(readFileSync(latestReleasedPath(), "utf8")) as JsonObject;
const changelog = readFileSync(`${releasedDir}CHANGELOG.md`, "utf8");
const guide = readFileSync(new URL("../../../docs/contract-evolution.md", import.meta.url), "utf8");

/** A copy of the released contract changed by `mutate`, gated against the released one. */
function gate(mutate: (doc: JsonObject, schemas: Schemas) => void, extra: Partial<GateInput> = {}) {
  const current = structuredClone(released);
  mutate(current, (current.components as { schemas: Schemas }).schemas);
  return runGate({ released, current, changelog, ...extra });
}

const paths = (doc: JsonObject) => doc.paths as Record<string, Record<string, JsonObject>>;
const webhooks = (doc: JsonObject) => doc.webhooks as Record<string, Record<string, JsonObject>>;

const breakingKinds: [string, (doc: JsonObject, s: Schemas) => void, RegExp][] = [
  ["a removed path", (doc) => delete paths(doc)["/api/dispatch/index"], /^GET \/api\/dispatch\/index$/],
  ["a removed operation", (doc) => delete paths(doc)["/api/mcp"].delete, /^DELETE \/api\/mcp$/],
  [
    "a removed response field",
    (_, s) => {
      delete s.Quote.properties.eta_tier;
      s.Quote.required = s.Quote.required!.filter((f) => f !== "eta_tier");
    },
    /^POST \/api\/dispatch\/v1\/quote responses\/200\/.*properties\/eta_tier$/,
  ],
  [
    "a retyped response field",
    (_, s) => ((s.Quote.properties.availability.properties as Record<string, JsonObject>).coverage.type = "integer"),
    /^POST \/api\/dispatch\/v1\/quote responses\/200\/.*coverage\/type$/,
  ],
  [
    "a new required request field",
    (_, s) => s.QuoteRequest.required!.push("description"),
    /^POST \/api\/dispatch\/v1\/quote requestBody\/.*required\/=description$/,
  ],
  [
    "a narrowed request enum",
    (_, s) => (s.Urgency.enum = ["emergency", "urgent", "routine"]),
    /^POST \/api\/dispatch\/v1\/quote requestBody\/.*urgency\/.*enum\/=scheduled$/,
  ],
  [
    "a tighter bound on a request field",
    (_, s) => (s.OrderRequest.properties.reference_id.minLength = 4),
    /^POST \/api\/dispatch\/v1\/order requestBody\/.*reference_id\/minLength$/,
  ],
  [
    "a raised minimum on a request field",
    (_, s) => (s.QuoteRequest.properties.nte_cents.minimum = 100),
    /^POST \/api\/dispatch\/v1\/quote requestBody\/.*nte_cents\/minimum$/,
  ],
  [
    "a lower maximum on a request field",
    (_, s) => (s.QuoteRequest.properties.description.maxLength = 100),
    /^POST \/api\/dispatch\/v1\/quote requestBody\/.*description\/maxLength$/,
  ],
  ["a removed webhook", (doc) => delete webhooks(doc)["order.cancelled"], /^webhook order\.cancelled POST$/],
  [
    "a removed webhook payload field",
    (_, s) => {
      delete s.OrderEventData.properties.status_url;
      s.OrderEventData.required = s.OrderEventData.required!.filter((f) => f !== "status_url");
    },
    /^webhook order\.created POST requestBody\/.*data\/properties\/status_url$/,
  ],
  [
    "a retyped webhook payload field",
    (_, s) => (s.OrderEventData.properties.order_id.type = "integer"),
    /^webhook order\.status_changed POST requestBody\/.*data\/properties\/order_id\/type$/,
  ],
  [
    "a removed webhook header",
    (doc) => (webhooks(doc)["order.created"].post.parameters as unknown[]).splice(2, 1),
    /^webhook order\.created POST parameters\/webhook-signature$/,
  ],
];

describe("breaking-change gate", function () {
  this.timeout(60_000);

  for (const [kind, mutate, id] of breakingKinds) {
    it(`fails on ${kind}`, () => {
      const result = gate(mutate);
      assert.equal(result.ok, false);
      assert.ok(
        result.breaking.some((c) => id.test(c.id)),
        result.breaking.map((c) => c.id).join("\n"),
      );
    });
  }

  it("passes additive changes: a new optional request field, a new response field, a new operation", () => {
    const result = gate((doc, s) => {
      s.QuoteRequest.properties.note = { type: "string", maxLength: 100 };
      s.Quote.properties.note = { type: "string" };
      paths(doc)["/api/dispatch/v1/ping"] = {
        get: { operationId: "ping", responses: { "204": { description: "Pong." } } },
      };
    });
    assert.deepEqual(result.breaking, []);
    assert.equal(result.ok, true);
  });

  it("passes a widened request bound, a narrowed response type and a response field made required", () => {
    const result = gate((_, s) => {
      s.QuoteRequest.properties.description.maxLength = 4000;
      s.Problem.required!.push("request_id");
      s.OrderSummary.properties.reference_id.type = "string";
    });
    assert.deepEqual(result.breaking, []);
  });

  describe("a replaced request pattern", () => {
    /** The released contract with `pattern` on createOrder's `description`, gated against the released one. */
    const rewrite = (pattern: string) => gate((_, s) => (s.OrderRequest.properties.description.pattern = pattern));
    const id = /^POST \/api\/dispatch\/v1\/order requestBody\/.*description\/pattern$/;

    it("passes when the new pattern accepts every string the old one did (written for RE2 and Rust as well)", () => {
      const result = rewrite(String.raw`^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$`);
      assert.deepEqual(result.breaking, []);
    });

    for (const [what, pattern] of [
      ["refuses a string the old one accepted (a tab)", String.raw`^[^\x00-\x1F\x7F]*$`],
      ["refuses the empty text the old one accepted", String.raw`^[a-z]`],
    ])
      it(`fails when it ${what}`, () => {
        const result = rewrite(pattern);
        assert.ok(
          result.breaking.some((c) => id.test(c.id)),
          result.breaking.map((c) => c.id).join("\n"),
        );
      });
  });

  /** Grows enum `schema` by `value` against the released contract (where it is open) and against a copy of it where
   * it is closed (x-extensible-enum removed); the gate's two results. */
  function growEnum(schema: string, value: string) {
    const grow = (_: JsonObject, s: Schemas) => (s[schema].enum = [...(s[schema].enum as string[]), value]);
    assert.equal((released.components as { schemas: Schemas }).schemas[schema]["x-extensible-enum"], true);
    const closed = structuredClone(released);
    delete (closed.components as { schemas: Schemas }).schemas[schema]["x-extensible-enum"];
    const current = structuredClone(closed);
    grow(current, (current.components as { schemas: Schemas }).schemas);
    return { open: gate(grow), closed: runGate({ released: closed, current, changelog }) };
  }

  it("lets a response enum grow only when the released contract declared it open", () => {
    const { open, closed } = growEnum("EtaTier", "within_2h");
    assert.equal(open.ok, true);
    assert.equal(closed.ok, false);
  });

  it("lets an open enum grow where it is referenced with a sibling description ($ref read as allOf)", () => {
    const { open, closed } = growEnum("OrderEventType", "order.paused");
    assert.deepEqual(open.breaking, []);
    assert.ok(
      closed.breaking.some((c) => /deliveries .*event_type\/allOf\/0\/enum\/=order\.paused$/.test(c.id)),
      closed.breaking.map((c) => c.id).join("\n"),
    );
  });

  it("passes an added optional webhook payload field and a new webhook, and names the webhook it saw change", () => {
    const current = structuredClone(released);
    (current.components as { schemas: Schemas }).schemas.OrderEventData.properties.note = { type: "string" };
    webhooks(current)["order.delayed"] = structuredClone(webhooks(current)["order.created"]);
    const changes = compareContracts(released, current);
    assert.deepEqual(
      changes.filter((c) => c.type === "breaking"),
      [],
    );
    assert.ok(changes.some((c) => /^webhook order\.created POST requestBody\/.*data\/properties\/note$/.test(c.id)));
    assert.ok(changes.some((c) => c.id === "webhook order.delayed POST"));
    assert.equal(runGate({ released, current, changelog }).ok, true);
  });

  it("lets a webhook payload enum grow only when the released contract declared it open", () => {
    const { open, closed: result } = growEnum("OrderLifecycleStatus", "paused");
    assert.equal(open.ok, true);
    assert.equal(result.ok, false);
    const id = /^webhook order\.status_changed POST requestBody\/.*data\/properties\/status\/enum\/=paused$/;
    assert.ok(
      result.breaking.some((c) => id.test(c.id)),
      result.breaking.map((c) => c.id).join("\n"),
    );
  });

  it("passes a breaking change under a new major version only when its release notes name it", () => {
    const mutate = (doc: JsonObject) => {
      delete paths(doc)["/api/dispatch/index"];
      (doc.info as JsonObject).version = "2.0.0";
    };
    assert.equal(gate(mutate).ok, false);
    const notes = `${changelog}\n## 2.0.0\n\n- Removed \`GET /api/dispatch/index\` (use getCapabilityIndex).\n`;
    assert.equal(gate(mutate, { changelog: notes }).ok, true);
    const minor = (doc: JsonObject) => {
      mutate(doc);
      (doc.info as JsonObject).version = "1.1.0";
    };
    assert.equal(gate(minor, { changelog: notes.replace("## 2.0.0", "## 1.1.0") }).ok, false);
  });

  it("lets a request narrowing through within 1.x only when the corrections section names it", () => {
    const narrow = (doc: JsonObject, schemas: Schemas) => {
      const urgency = schemas.Urgency as JsonObject;
      urgency.enum = (urgency.enum as string[]).filter((value) => value !== "scheduled");
    };
    const narrowed = gate(narrow);
    assert.equal(narrowed.ok, false);
    const ids = narrowed.breaking.map((c) => c.id);
    assert.ok(ids.length > 0 && ids.every((id) => /requestBody\/\S*\/enum\/=scheduled$/.test(id)), ids.join("\n"));
    const heading = "## Corrections within 1.x\n";
    const named = (list: string[]) =>
      changelog.replace(heading, `${heading}\n${list.map((id) => `- \`${id}\`: never accepted.`).join("\n")}\n`);
    assert.equal(gate(narrow, { changelog: named(ids) }).ok, true);
    assert.equal(gate(narrow, { changelog: named(ids.slice(1)) }).ok, false, "every narrowing must be named");
    // a removal named as a correction is still breaking: only request narrowings can be corrections
    const removal = (doc: JsonObject) => {
      delete paths(doc)["/api/dispatch/index"];
    };
    const removed = gate(removal).breaking.map((c) => c.id);
    assert.equal(gate(removal, { changelog: named(removed) }).ok, false);
  });

  it("passes openapi.yaml as committed, with no breaking change against the released contract", () => {
    const result = runGate({ released, current: loadContract(), changelog });
    assert.deepEqual(
      result.breaking.map((c) => c.id),
      [],
    );
    assert.equal(result.ok, true);
  });

  it("is documented in the contract evolution guide: the released baseline, the major-version rule, webhooks and deprecation", () => {
    const section = guide;
    const baseline = String((released.info as JsonObject).version);
    assert.match(section, new RegExp(`released baseline is ${baseline.replace(/\./g, "\\.")}`));
    assert.match(section, /A breaking change needs a new\s+major version/);
    assert.match(section, /judges the top-level `webhooks` as well/);
    assert.match(section, /\*\*Deprecation policy\.\*\*[^]*at least 12 months/);
  });
});
