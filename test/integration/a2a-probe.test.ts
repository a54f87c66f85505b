// The agentic.readiness_probe skill over A2A runs the real probe (fixture storefront on 127.0.0.1).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Message, TaskState, type Task } from "@a2a-js/sdk";
import { ClientFactory, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { serveStorefront, type Storefront } from "../fixtures/storefronts/serve.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

describe("A2A readiness probe skill", function () {
  this.timeout(60_000);
  let t: TestServer;
  let shop: Storefront;
  before(async () => {
    t = await startTestServer(undefined, { PROBE_ALLOW_PRIVATE: "true" });
    shop = await serveStorefront("good");
  });
  after(async () => {
    await shop?.close();
    await t?.stop();
  });

  const ask = async (input: unknown) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- the SDK types plain options as a class
    const client = await new ClientFactory({ transports: [new JsonRpcTransportFactory({})] }).createFromUrl(t.url);
    const message = Message.fromJSON({
      messageId: randomUUID(),
      role: "ROLE_USER",
      parts: [{ data: { skill: "agentic.readiness_probe", input } }],
    });
    return (await client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined })) as Task;
  };

  it("completes with the same graded snapshot the REST probe gives", async () => {
    const task = await ask({ url: shop.url });
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    const content = task.artifacts[0]?.parts[0]?.content;
    assert.equal(content?.$case, "data");
    const report = content.value as { grade: string; snapshot: boolean; attested: boolean; checks: unknown[] };
    assert.deepEqual([report.grade, report.snapshot, report.attested], ["A", true, false]);
    assert.ok(shop.requests.includes("/robots.txt"));
  });

  it("fails the task for a forbidden address without fetching it", async () => {
    const task = await ask({ url: "http://169.254.169.254/latest/meta-data" });
    assert.equal(task.status?.state, TaskState.TASK_STATE_FAILED);
  });
});
