// A2A task store kept in memory with a bound: two generations of at most `limit` tasks each, the older one
// dropped whole when the newer fills up. Tasks finish within their SendMessage call, so only GetTask/ListTasks
// read them later; a restart or another instance forgets them (documented in the README).
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";

export function createBoundedTaskStore(limit = 1000): TaskStore {
  let current = new InMemoryTaskStore();
  let previous: InMemoryTaskStore | null = null;
  let saved = new Set<string>();

  return {
    async save(task: Task, context: ServerCallContext) {
      if (!saved.has(task.id) && saved.size >= limit) {
        previous = current;
        current = new InMemoryTaskStore();
        saved = new Set();
      }
      saved.add(task.id);
      await current.save(task, context);
    },
    async load(taskId: string, context: ServerCallContext) {
      return (await current.load(taskId, context)) ?? (await previous?.load(taskId, context));
    },
    async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      return current.list(params, context);
    },
  };
}
