// The confirmation tokens of the tools that ask before they act, on a migrated in-memory PGlite: a token is spent
// once, only by the key, tool and arguments it was issued for, and only before it expires (times are given, not
// read from the wall clock); only its hash is stored; a key's dead tokens are purged when it previews again. And
// ask-first's argument split: `confirmation_token` is taken out of the arguments, a malformed one is a field error.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../../../server/db/knex.js";
import { migrate } from "../../../../server/db/migrate.js";
import { takeConfirmationToken } from "../../../../server/services/agents/ask-first.js";
import {
  confirmationTtlMs,
  createConfirmationStore,
  type ConfirmationBinding,
} from "../../../../server/services/agents/confirmations.js";
import { DomainError } from "../../../../server/services/errors.js";

const binding: ConfirmationBinding = {
  callerId: "key_1",
  tenant: { account: "acme", environment: "test" },
  capability: "dispatch.cancel_order",
  argumentsHash: "a".repeat(64),
};
const at = (iso: string) => new Date(iso);
const noon = at("2026-11-24T12:00:00Z");

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail("expected confirmation_invalid"),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError && error.code === "confirmation_invalid", String(error));
  return error.message;
}

describe("confirmation store", function () {
  this.timeout(30_000);
  let db: Db;
  before(async () => {
    db = createDb("pglite://memory");
    await migrate(db);
  });
  after(() => db?.destroy());

  it("issues a dcf_ token valid for five minutes, storing only its hash", async () => {
    const store = createConfirmationStore(db);
    const issued = await store.issue(binding, noon);
    assert.match(issued.token, /^dcf_[0-9A-Za-z]{32}$/);
    assert.equal(issued.expiresAt.getTime() - noon.getTime(), confirmationTtlMs);
    const rows = await db("agent_confirmations").select("token_hash");
    assert.ok(rows.every((row) => row.token_hash !== issued.token && /^[0-9a-f]{64}$/.test(row.token_hash)));
  });

  it("spends a token once, for its own key, tool and arguments, before it expires", async () => {
    const store = createConfirmationStore(db);
    const { token } = await store.issue(binding, noon);
    const cases: [string, ConfirmationBinding, Date, RegExp][] = [
      ["other arguments", { ...binding, argumentsHash: "b".repeat(64) }, noon, /other arguments/],
      ["other tool", { ...binding, capability: "dispatch.order" }, noon, /another tool/],
      ["other key", { ...binding, callerId: "key_2" }, noon, /unknown to this key/],
      ["other environment", { ...binding, tenant: { account: "acme", environment: "live" } }, noon, /other/],
      ["at expiry", binding, new Date(noon.getTime() + confirmationTtlMs), /expired/],
    ];
    for (const [name, other, when, reason] of cases)
      assert.match(await refusal(store.spend(other, token, when)), reason, name);
    await store.spend(binding, token, new Date(noon.getTime() + confirmationTtlMs - 1));
    assert.match(await refusal(store.spend(binding, token, noon)), /already used/);
    assert.match(await refusal(store.spend(binding, "dcf_unknown", noon)), /unknown to this key/);
  });

  it("lets only one of two racing confirmations through", async () => {
    const store = createConfirmationStore(db);
    const { token } = await store.issue(binding, noon);
    const outcomes = await Promise.allSettled([store.spend(binding, token, noon), store.spend(binding, token, noon)]);
    assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ["fulfilled", "rejected"]);
  });

  it("purges a key's spent and expired tokens when it previews again, and no other key's", async () => {
    const store = createConfirmationStore(db);
    await db("agent_confirmations").delete();
    const spent = await store.issue(binding, noon);
    await store.spend(binding, spent.token, noon);
    await store.issue(binding, noon); // alive until 12:05
    await store.issue({ ...binding, callerId: "key_2" }, noon);
    await store.issue(binding, at("2026-11-24T12:06:00Z"));
    const left = await db("agent_confirmations").select("caller_id").orderBy("caller_id");
    assert.deepEqual(
      left.map((row) => row.caller_id),
      ["key_1", "key_2"],
    );
  });
});

describe("takeConfirmationToken()", () => {
  it("takes the token out of the arguments and leaves other input alone", () => {
    assert.deepEqual(takeConfirmationToken({ id: "ord_1", confirmation_token: "dcf_x" }), {
      args: { id: "ord_1" },
      token: "dcf_x",
    });
    assert.deepEqual(takeConfirmationToken({ id: "ord_1" }), { args: { id: "ord_1" }, token: undefined });
    assert.deepEqual(takeConfirmationToken("nope"), { args: "nope", token: undefined });
  });

  for (const bad of [42, "", "x".repeat(101), null])
    it(`refuses confirmation_token ${JSON.stringify(bad).slice(0, 12)} with a field error`, () => {
      assert.throws(
        () => takeConfirmationToken({ confirmation_token: bad }),
        (error: unknown) =>
          error instanceof DomainError &&
          error.code === "validation_failed" &&
          error.extra.errors?.[0]?.pointer === "/confirmation_token",
      );
    });
});
