// The A2A task store's per-caller bounds: a flood from one caller evicts only that caller's own tasks.
import assert from "node:assert/strict";
import type { Task } from "@a2a-js/sdk";
import { ServerCallContext, type User } from "@a2a-js/sdk/server";
import { createBoundedTaskStore } from "../../../../server/services/agents/a2a-task-store.js";

const as = (userName: string | null) => {
  const user: User = { isAuthenticated: userName !== null, userName: userName ?? "anonymous" };
  return new ServerCallContext({ user });
};
const task = (id: string) =>
  ({ id, contextId: "ctx", artifacts: [], history: [], metadata: undefined }) as unknown as Task;

describe("a2a task store", () => {
  describe("save()", () => {
    it("keeps caller A's task through 2,160 saves by caller B", async () => {
      const store = createBoundedTaskStore({ perCaller: 50, callers: 100 });
      const a = as("acct-a");
      await store.save(task("a-1"), a);
      const b = as("acct-b");
      for (let i = 0; i < 2160; i++) await store.save(task(`b-${i}`), b);
      assert.equal((await store.load("a-1", as("acct-a")))?.id, "a-1");
      assert.equal(await store.load("b-0", as("acct-b")), undefined, "B's own oldest task was evicted");
      assert.equal((await store.load("b-2159", as("acct-b")))?.id, "b-2159");
    });

    it("keeps anonymous tasks for their own request only", async () => {
      const store = createBoundedTaskStore();
      const request = as(null);
      await store.save(task("anon-1"), request);
      assert.equal((await store.load("anon-1", request))?.id, "anon-1");
      assert.equal(await store.load("anon-1", as(null)), undefined);
      assert.equal(await store.load("anon-1", as("acct-a")), undefined);
    });
  });
});
