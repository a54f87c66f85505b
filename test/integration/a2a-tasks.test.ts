// A2A tasks are private to their caller: another caller can neither list nor get them, and
// anonymous callers' tasks are never kept past their own request.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Message, TaskState, type SendMessageResult, type Task } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/a2a.js";

async function estimate(client: Client, state: string, padding = 0): Promise<Task> {
  const input = { trade: "electrical", location: { state } };
  const message = Message.fromJSON({
    messageId: randomUUID(),
    role: "ROLE_USER",
    parts: [{ data: { skill: "dispatch.estimate", input } }],
    ...(padding ? { metadata: { padding: "x".repeat(padding) } } : {}),
  });
  const result: SendMessageResult = await client.sendMessage({
    tenant: "",
    message,
    configuration: undefined,
    metadata: undefined,
  });
  assert.ok("status" in result, "expected a task");
  return result;
}

const listIds = async (client: Client) =>
  (
    await client.listTasks({
      tenant: "",
      contextId: "",
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageSize: 100,
      includeArtifacts: true,
    } as Parameters<Client["listTasks"]>[0])
  ).tasks.map((t) => t.id);
const get = (client: Client, id: string) => client.getTask({ tenant: "", id, historyLength: undefined });

describe("A2A task isolation", function () {
  this.timeout(60_000);
  let t: TestServer;
  let a: Client;
  let b: Client;
  before(async () => {
    t = await startTestServer(undefined, {}, { inject: true });
    a = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-tenant-a" })).key });
    b = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-tenant-b" })).key });
  });
  after(() => t?.stop());

  it("lets the owner get and list its task, and another caller neither", async () => {
    const task = await estimate(a, "CA");
    assert.equal((await get(a, task.id)).id, task.id);
    assert.ok((await listIds(a)).includes(task.id));
    assert.deepEqual(await listIds(b), []);
    await assert.rejects(get(b, task.id), /not found/i);
  });

  it("keeps no anonymous task: a stranger's ListTasks is empty and GetTask is not found", async () => {
    const first = await clientFor(t);
    const task = await estimate(first, "TX");
    const stranger = await clientFor(t);
    assert.deepEqual(await listIds(stranger), []);
    await assert.rejects(get(stranger, task.id), /not found/i);
    await assert.rejects(get(first, task.id), /not found/i);
  });

  it("keeps a caller's task through another caller's flood of messages", async () => {
    const task = await estimate(a, "NY");
    const anonymous = await clientFor(t);
    for (let i = 0; i < 40; i++) await estimate(i % 2 ? anonymous : b, "WA");
    assert.equal((await get(a, task.id)).id, task.id);
  });
});

describe("A2A task memory bounds", function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer(undefined, { A2A_TASK_BYTES_PER_CALLER: "65536" }, { inject: true });
  });
  after(() => t?.stop());

  it("keeps a caller to A2A_TASK_BYTES_PER_CALLER, evicting its own oldest tasks, not another caller's", async () => {
    const a = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-bytes-a" })).key });
    const b = await clientFor(t, { "x-api-key": (await t.issueKey({ account: "a2a-bytes-b" })).key });
    const kept = await estimate(a, "CA");
    const flood: Task[] = [];
    for (let i = 0; i < 8; i++) flood.push(await estimate(b, "WA", 16_000));
    await assert.rejects(get(b, flood[0].id), /not found/i);
    assert.equal((await get(b, flood[7].id)).id, flood[7].id);
    assert.ok((await listIds(b)).length <= 4);
    assert.equal((await get(a, kept.id)).id, kept.id);
  });
});
