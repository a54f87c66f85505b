// The A2A endpoint driven by the A2A SDK client (card resolution + JSON-RPC SendMessage), on every test database.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { A2A_PROTOCOL_VERSION, Message, TaskState, type SendMessageResult, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { capabilities } from "../../server/services/agents/capabilities.js";
import { oauthToken } from "../fixtures/orders.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { artifactData, ask, asTask, clientFor } from "../helpers/a2a.js";

/** Answers an input-required task with a data part, on the same task. */
function answer(client: Client, task: Task, data: Record<string, unknown>): Promise<SendMessageResult> {
  const message = Message.fromJSON({
    messageId: randomUUID(),
    role: "ROLE_USER",
    taskId: task.id,
    contextId: task.contextId,
    parts: [{ data }],
  });
  return client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined });
}

/** A skill that asks before it acts: its preview ends the task input-required; the token confirms on that task. */
async function askConfirmed(client: Client, skill: string, input: unknown): Promise<Task> {
  const preview = asTask(await ask(client, skill, input));
  if (preview.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return preview; // refused before a preview
  return asTask(await answer(client, preview, { confirmation_token: statusData(preview).confirmation_token }));
}

const statusData = (task: Task) =>
  task.status?.message?.parts.find((p) => p.content?.$case === "data")?.content?.value as Record<string, unknown>;

for (const db of databases()) {
  describe(`A2A endpoint (${db.name})`, function () {
    this.timeout(60_000);
    let t: TestServer;
    let key: string;
    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
      key = (await t.issueKey({ account: "a2a-acct" })).key;
    });
    after(() => t?.stop());

    it("resolves the card and lists every capability of the registry as a skill on a v1.0 JSON-RPC interface", async () => {
      const card = await (await clientFor(t)).getAgentCard();
      assert.deepEqual(
        card.skills.map((s) => s.id),
        capabilities.map((c) => c.id),
      );
      assert.deepEqual(
        card.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]),
        [[`${t.url}/api/a2a`, "JSONRPC", A2A_PROTOCOL_VERSION]],
      );
    });

    it("runs public skills without a credential: dispatch.index and dispatch.estimate complete with a data artifact", async () => {
      const client = await clientFor(t);
      const index = asTask(await ask(client, "dispatch.index", {}));
      assert.equal(index.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal((artifactData(index).trades as unknown[]).length, 8);
      const estimate = asTask(
        await ask(client, "dispatch.estimate", { trade: "electrical", location: { state: "CA" } }),
      );
      assert.equal(estimate.status?.state, TaskState.TASK_STATE_COMPLETED);
      const body = artifactData(estimate);
      assert.equal(body.urgency, "routine");
      assert.ok(body.wage_basis && body.billed_estimate);
      // Anonymous tasks live for their own request only (the answer carries the whole task): not kept for GetTask.
      await assert.rejects(client.getTask({ tenant: "", id: estimate.id, historyLength: undefined }), /not found/i);
    });

    it("fails a task with field errors on invalid input and rejects an unknown or missing skill", async () => {
      const client = await clientFor(t);
      const invalid = asTask(
        await ask(client, "dispatch.estimate", { trade: "plumbing", location: { state: "Texas" } }),
      );
      assert.equal(invalid.status?.state, TaskState.TASK_STATE_FAILED);
      assert.deepEqual(
        (statusData(invalid).errors as { pointer: string }[]).map((e) => e.pointer),
        ["/location/state"],
      );
      assert.equal(statusData(asTask(await ask(client, "dispatch.teleport", {}))).error, "unknown_skill");
    });

    it("runs a keyed skill with x-api-key and refuses it without one", async () => {
      const quoteInput = { trade: "plumbing", location: { state: "TX", zip: "78701" } };
      const anonymous = asTask(await ask(await clientFor(t), "dispatch.quote", quoteInput));
      assert.equal(anonymous.status?.state, TaskState.TASK_STATE_REJECTED);
      assert.match((anonymous.status?.message?.parts[0]?.content as { value: string }).value, /x-api-key/);
      const keyed = await clientFor(t, { "x-api-key": key });
      const quote = asTask(await ask(keyed, "dispatch.quote", quoteInput));
      assert.equal(quote.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.match(artifactData(quote).quote_id as string, /^qt_/);
      const order = await askConfirmed(keyed, "dispatch.order", {
        ...quoteInput,
        description: "Burst pipe under the sink.",
      });
      assert.equal(order.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.match((artifactData(order).order as { id: string }).id, /^ord_/);
    });

    it("reads, reschedules and cancels the key's own order with dispatch.order_status / reschedule_order / cancel_order; another account's is not found", async () => {
      const keyed = await clientFor(t, { "x-api-key": key });
      const input = { trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Dripping tap." };
      const ordered = artifactData(await askConfirmed(keyed, "dispatch.order", input)).order as {
        id: string;
        arrival_window: { start: string; end: string };
      };
      const { id, arrival_window } = ordered;
      const status = asTask(await ask(keyed, "dispatch.order_status", { id }));
      assert.equal(artifactData(status).id, id);
      // rescheduling to the window it has is the operation's idempotent answer: the order as it is
      const kept = asTask(await ask(keyed, "dispatch.reschedule_order", { id, arrival_window }));
      assert.equal(kept.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.deepEqual(artifactData(kept).arrival_window, arrival_window);
      const other = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-other" })).key });
      for (const [skill, args] of [
        ["dispatch.order_status", { id }],
        ["dispatch.cancel_order", { id, reason: "duplicate" }],
        ["dispatch.reschedule_order", { id, arrival_window }],
      ] as const) {
        const task = asTask(await ask(other, skill, args));
        assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED, skill);
        assert.equal(statusData(task).error, "not_found", skill);
      }
      const cancelled = await askConfirmed(keyed, "dispatch.cancel_order", { id, reason: "resolved_elsewhere" });
      assert.equal(cancelled.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(artifactData(cancelled).status, "cancelled");
    });

    it("asks before cancelling: input-required with a preview and nothing done; the token confirms once, for the same key and input", async () => {
      const keyed = await clientFor(t, { "x-api-key": key });
      const input = { trade: "plumbing", location: { state: "TX", zip: "78701" }, description: "Running toilet." };
      const { id } = artifactData(await askConfirmed(keyed, "dispatch.order", input)).order as { id: string };
      const orderNow = () =>
        t.fetch(`${t.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } }).then((r) => r.json());
      const before = (await orderNow()) as { status: string };
      const args = { id, reason: "duplicate" };
      const preview = asTask(await ask(keyed, "dispatch.cancel_order", args));
      assert.equal(preview.status?.state, TaskState.TASK_STATE_INPUT_REQUIRED);
      assert.deepEqual(preview.artifacts, []);
      const shown = statusData(preview) as {
        confirmation_required: boolean;
        order: { status: string };
        confirmation_token: string;
      };
      assert.deepEqual([shown.confirmation_required, shown.order.status], [true, before.status]);
      assert.deepEqual(await orderNow(), before, "the preview changed the order");
      const token = shown.confirmation_token;

      // other input, another key: refused (the task fails), nothing done
      const otherInput = asTask(
        await ask(keyed, "dispatch.cancel_order", { ...args, reason: "other", confirmation_token: token }),
      );
      assert.deepEqual(
        [otherInput.status?.state, statusData(otherInput).error],
        [TaskState.TASK_STATE_FAILED, "confirmation_invalid"],
      );
      const sibling = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-acct" })).key });
      const stolen = asTask(await ask(sibling, "dispatch.cancel_order", { ...args, confirmation_token: token }));
      assert.equal(statusData(stolen).error, "confirmation_invalid");
      assert.deepEqual(await orderNow(), before);

      // the same key answers the input-required task with the token: done once
      const done = asTask(await answer(keyed, preview, { confirmation_token: token }));
      assert.equal(done.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(artifactData(done).status, "cancelled");
      const reused = asTask(await ask(keyed, "dispatch.cancel_order", { ...args, confirmation_token: token }));
      assert.deepEqual(
        [reused.status?.state, statusData(reused).error],
        [TaskState.TASK_STATE_FAILED, "confirmation_invalid"],
      );
    });

    it("places no order on dispatch.order's preview; a new message with the token in its input places it", async () => {
      const countKey = (await t.issueKey({ account: "a2a-count" })).key;
      const keyed = await clientFor(t, { "x-api-key": countKey });
      const count = async () => {
        const response = await t.fetch(`${t.url}/api/dispatch/v1/orders`, { headers: { "x-api-key": countKey } });
        return ((await response.json()) as { items: unknown[] }).items.length;
      };
      const input = { trade: "hvac", location: { state: "TX", zip: "78701" }, description: "No heat." };
      const preview = asTask(await ask(keyed, "dispatch.order", input));
      assert.equal(preview.status?.state, TaskState.TASK_STATE_INPUT_REQUIRED);
      assert.equal(await count(), 0);
      const token = statusData(preview).confirmation_token as string;
      const placed = asTask(await ask(keyed, "dispatch.order", { ...input, confirmation_token: token }));
      assert.equal(placed.status?.state, TaskState.TASK_STATE_COMPLETED);
      assert.equal(await count(), 1);
    });

    it("accepts an OAuth token as Bearer for dispatch.quote and rejects dispatch.order with the entitlement body", async () => {
      const token = await oauthToken(t);
      const client = await clientFor(t, { authorization: `Bearer ${token}` });
      assert.equal(
        asTask(await ask(client, "dispatch.quote", { trade: "hvac", location: { state: "CA" } })).status?.state,
        TaskState.TASK_STATE_COMPLETED,
      );
      const order = asTask(
        await ask(client, "dispatch.order", { trade: "hvac", location: { state: "CA" }, description: "No heat." }),
      );
      assert.equal(order.status?.state, TaskState.TASK_STATE_REJECTED);
      assert.equal(statusData(order).error, "payment_required");
    });

    it("answers a bad credential with 401 and a request without A2A-Version as v1.0", async () => {
      const send = (headers: Record<string, string>) =>
        t.fetch(`${t.url}/api/a2a`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 7,
            method: "SendMessage",
            params: {
              message: {
                messageId: randomUUID(),
                role: "ROLE_USER",
                parts: [{ data: { skill: "dispatch.index", input: {} } }],
              },
            },
          }),
        });
      assert.equal((await send({ "x-api-key": "dispatch_test_wrong" })).status, 401);
      assert.equal((await send({ authorization: `Bearer ${key}` })).status, 401, "API keys as Bearer are for MCP only");
      const plain = await (await send({})).json();
      assert.equal(plain.result.task.status.state, "TASK_STATE_COMPLETED");
      const old = await (await send({ "a2a-version": "0.3" })).json();
      assert.equal(old.error.code, -32009);
    });
  });
}
