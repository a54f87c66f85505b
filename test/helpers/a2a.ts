// The A2A suites' client: the A2A SDK's own (card resolution + JSON-RPC SendMessage) with headers injected into its
// fetch, a skill asked as a data part, and the task's first artifact read back as data.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Message, type SendMessageResult, type Task } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from "@a2a-js/sdk/client";
import type { ServerTarget } from "./server.js";

/** A client whose every request carries `headers` (injected fetch, no global patching). */
export function clientFor({ url, fetch }: ServerTarget, headers: Record<string, string> = {}): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
  return new ClientFactory({
    // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- the SDK types plain options as a class
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetch }), // the card without the client's headers
  }).createFromUrl(url);
}

export function ask(client: Client, skill: string, input: unknown): Promise<SendMessageResult> {
  const message = Message.fromJSON({ messageId: randomUUID(), role: "ROLE_USER", parts: [{ data: { skill, input } }] });
  return client.sendMessage({ tenant: "", message, configuration: undefined, metadata: undefined });
}

export function asTask(result: SendMessageResult): Task {
  assert.ok("status" in result, "expected a task");
  return result;
}

export const artifactData = (task: Task) => {
  const content = task.artifacts[0]?.parts[0]?.content;
  assert.equal(content?.$case, "data");
  return content.value as Record<string, unknown>;
};
