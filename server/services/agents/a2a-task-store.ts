// A2A task store kept in memory, isolated and bounded per caller: each authenticated caller has its own two
// generations of at most `perCaller` tasks (the older dropped whole when the newer fills), so a flood from one
// caller only ever evicts that caller's tasks. Anonymous callers get a store that lives for their one request:
// SendMessage already answers with the whole task, and any longer-lived key (a client IP) is shared behind
// NAT or a proxy, so keeping anonymous tasks would leak one stranger's inputs and outputs to another.
// Tasks finish within their SendMessage call; GetTask/ListTasks read them later on the instance that ran them.
import type { ListTasksRequest, ListTasksResponse, Task } from "@a2a-js/sdk";
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from "@a2a-js/sdk/server";

interface Generations {
  current: InMemoryTaskStore;
  previous: InMemoryTaskStore | null;
  saved: Set<string>;
}

export interface TaskStoreLimits {
  /** Tasks kept per caller (per generation). */
  perCaller: number;
  /** Authenticated callers kept; past it the least recently active caller's tasks are forgotten. */
  callers: number;
}

const fresh = (): Generations => ({ current: new InMemoryTaskStore(), previous: null, saved: new Set() });

/** Finds (or makes) a caller's generations; authenticated callers are kept most recently active last. */
function createCallerIndex(limits: TaskStoreLimits) {
  const byCaller = new Map<string, Generations>(); // insertion order = least recently active first
  const anonymous = new WeakMap<ServerCallContext, Generations>(); // dies with the request's context
  const ownerOf = (context: ServerCallContext) => (context.user?.isAuthenticated ? context.user.userName : null);

  function find(context: ServerCallContext): Generations | undefined {
    const owner = ownerOf(context);
    if (owner === null) return anonymous.get(context);
    const found = byCaller.get(owner);
    if (found) {
      byCaller.delete(owner);
      byCaller.set(owner, found);
    }
    return found;
  }

  function obtain(context: ServerCallContext): Generations {
    const found = find(context);
    if (found) return found;
    const made = fresh();
    const owner = ownerOf(context);
    if (owner === null) anonymous.set(context, made);
    else {
      const oldest = byCaller.keys().next();
      if (byCaller.size >= limits.callers && !oldest.done) byCaller.delete(oldest.value);
      byCaller.set(owner, made);
    }
    return made;
  }
  return { find, obtain };
}

export function createBoundedTaskStore(limits: TaskStoreLimits = { perCaller: 200, callers: 10_000 }): TaskStore {
  const callers = createCallerIndex(limits);
  return {
    async save(task: Task, context: ServerCallContext) {
      const g = callers.obtain(context);
      if (!g.saved.has(task.id) && g.saved.size >= limits.perCaller) {
        g.previous = g.current;
        g.current = new InMemoryTaskStore();
        g.saved = new Set();
      }
      g.saved.add(task.id);
      await g.current.save(task, context);
    },
    async load(taskId: string, context: ServerCallContext) {
      const g = callers.find(context);
      return (await g?.current.load(taskId, context)) ?? (await g?.previous?.load(taskId, context));
    },
    async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      return (callers.find(context) ?? fresh()).current.list(params, context);
    },
  };
}
