// The A2A task store's bounds, in bytes: per caller (a flood evicts the caller's own oldest finished tasks) and in
// all (many callers together cannot hold more than the total); running tasks go last; anonymous tasks do not stay.
import assert from "node:assert/strict";
import { TaskState, type ListTasksRequest, type Task } from "@a2a-js/sdk";
import { ServerCallContext, type User } from "@a2a-js/sdk/server";
import { createBoundedTaskStore, defaultTaskStoreLimits } from "../../../../server/services/agents/a2a-task-store.js";

const as = (userName: string | null) => {
  const user: User = { isAuthenticated: userName !== null, userName: userName ?? "anonymous" };
  return new ServerCallContext({ user });
};
let clock = Date.parse("2026-11-24T00:00:00Z");
/** A task whose JSON is a little over `padding` bytes, its status stamped one second after the previous one's. */
const task = (id: string, padding = 0, state = TaskState.TASK_STATE_COMPLETED) =>
  ({
    id,
    contextId: "ctx",
    status: { state, message: undefined, timestamp: new Date((clock += 1000)).toISOString() },
    artifacts: [],
    history: [],
    metadata: { padding: "x".repeat(padding) },
  }) as unknown as Task;
const kib = 1024;
const listAll = { pageSize: 100 } as ListTasksRequest;

describe("a2a task store", () => {
  describe("save()", () => {
    it("keeps a caller under its byte bound: 400 tasks of 64 KiB leave at most the default 2 MiB", async () => {
      const store = createBoundedTaskStore();
      const flood = as("oauth:flood");
      for (let i = 0; i < 400; i++) await store.save(task(`f-${i}`, 64 * kib), flood);
      assert.ok(store.bytes("oauth:flood") <= defaultTaskStoreLimits.callerBytes, String(store.bytes("oauth:flood")));
      assert.equal(await store.load("f-0", flood), undefined, "the oldest went first");
      assert.equal((await store.load("f-399", flood))?.id, "f-399");
    });

    it("keeps caller A's task through 2,160 saves by caller B", async () => {
      const store = createBoundedTaskStore({ callerBytes: 64 * kib, totalBytes: 1024 * kib });
      await store.save(task("a-1", kib), as("acct-a"));
      const b = as("acct-b");
      for (let i = 0; i < 2160; i++) await store.save(task(`b-${i}`, kib), b);
      assert.equal((await store.load("a-1", as("acct-a")))?.id, "a-1");
      assert.equal(await store.load("b-0", b), undefined, "B's own oldest task was evicted");
      assert.equal((await store.load("b-2159", b))?.id, "b-2159");
      assert.ok(store.bytes("acct-b") <= 64 * kib);
    });

    it("keeps all callers together under the total, evicting the instance's oldest finished tasks", async () => {
      const store = createBoundedTaskStore({ callerBytes: 128 * kib, totalBytes: 256 * kib });
      for (let caller = 0; caller < 10; caller++)
        for (let i = 0; i < 8; i++) await store.save(task(`c${caller}-${i}`, 10 * kib), as(`acct-${caller}`));
      assert.ok(store.bytes() <= 256 * kib, String(store.bytes()));
      assert.equal(await store.load("c0-0", as("acct-0")), undefined);
      assert.equal((await store.load("c9-7", as("acct-9")))?.id, "c9-7");
      assert.ok((await store.list(listAll, as("acct-9"))).tasks.length === 8, "the newest caller kept everything");
    });

    it("evicts finished tasks before a running one, and a running one only when nothing finished is left", async () => {
      const store = createBoundedTaskStore({ callerBytes: 64 * kib, totalBytes: 1024 * kib });
      const a = as("acct-a");
      await store.save(task("running", 20 * kib, TaskState.TASK_STATE_WORKING), a);
      for (let i = 0; i < 5; i++) await store.save(task(`done-${i}`, 20 * kib), a);
      assert.equal((await store.load("running", a))?.id, "running");
      assert.equal(await store.load("done-0", a), undefined);
      assert.equal((await store.load("done-4", a))?.id, "done-4");
      await store.save(task("huge", 63 * kib, TaskState.TASK_STATE_WORKING), a);
      assert.equal(await store.load("running", a), undefined);
      assert.equal((await store.load("huge", a))?.id, "huge", "the task being saved is never evicted");
    });

    it("counts a re-saved task once", async () => {
      const store = createBoundedTaskStore();
      const a = as("acct-a");
      await store.save(task("t", 10 * kib, TaskState.TASK_STATE_WORKING), a);
      const once = store.bytes("acct-a");
      await store.save(task("t", 10 * kib), a);
      assert.ok(Math.abs(store.bytes("acct-a") - once) < 64, `${once} vs ${store.bytes("acct-a")}`);
      assert.equal(store.bytes(), store.bytes("acct-a"));
    });

    it("keeps anonymous tasks for their own request only", async () => {
      const store = createBoundedTaskStore();
      const request = as(null);
      await store.save(task("anon-1"), request);
      assert.equal((await store.load("anon-1", request))?.id, "anon-1");
      assert.equal(await store.load("anon-1", as(null)), undefined);
      assert.equal(await store.load("anon-1", as("acct-a")), undefined);
      assert.equal(store.bytes(), 0);
    });
  });

  describe("list()", () => {
    it("pages a caller's tasks newest first, without artifacts unless asked", async () => {
      const store = createBoundedTaskStore();
      const a = as("acct-a");
      for (let i = 0; i < 5; i++) await store.save({ ...task(`l-${i}`), artifacts: [{ artifactId: "x" }] } as Task, a);
      await store.save(task("other"), as("acct-b"));
      const first = await store.list({ pageSize: 2 } as ListTasksRequest, a);
      assert.deepEqual(
        first.tasks.map((t) => t.id),
        ["l-4", "l-3"],
      );
      assert.equal(first.totalSize, 5);
      assert.deepEqual(first.tasks[0].artifacts, []);
      const second = await store.list({ pageSize: 2, pageToken: first.nextPageToken } as ListTasksRequest, a);
      assert.deepEqual(
        second.tasks.map((t) => t.id),
        ["l-2", "l-1"],
      );
      const withArtifacts = await store.list({ pageSize: 1, includeArtifacts: true } as ListTasksRequest, a);
      assert.equal(withArtifacts.tasks[0].artifacts.length, 1);
    });
  });
});
