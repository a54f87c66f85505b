// A2A task store in memory, bounded in bytes per authenticated caller and in all; anonymous callers' tasks live for
// their one request (why: docs/decisions.md, agent tasks and confirmations).
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from "@a2a-js/sdk";
import type { ServerCallContext, TaskStore } from "@a2a-js/sdk/server";
import { listTasks } from "./a2a-task-list.js";

export interface TaskStoreLimits {
  /** Bytes of task JSON kept per authenticated caller. */
  callerBytes: number;
  /** Bytes of task JSON kept for all callers together. */
  totalBytes: number;
}

export const defaultTaskStoreLimits: TaskStoreLimits = { callerBytes: 2 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 };

interface Kept {
  owner: string;
  task: Task;
  bytes: number;
}

const finishedStates = new Set<TaskState | undefined>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const isFinished = (kept: Kept) => finishedStates.has(kept.task.status?.state);
const anyTask = () => true;

/** Removes kept tasks, oldest first (finished ones, then any), until `fits()`; `spare` is never removed. */
function evict(oldestFirst: () => Iterable<Kept>, fits: () => boolean, spare: Kept, remove: (kept: Kept) => void) {
  for (const eligible of [isFinished, anyTask])
    for (const kept of oldestFirst()) {
      if (fits()) return;
      if (kept !== spare && eligible(kept)) remove(kept);
    }
}

const keyOf = (owner: string, id: string) => `${owner}\0${id}`;

/** Every authenticated caller's tasks in first-saved order (across callers in `all`), with their byte counts. */
interface Ledger {
  all: Map<string, Kept>;
  byOwner: Map<string, { tasks: Map<string, Kept>; bytes: number }>;
  total: number;
}

function remove(ledger: Ledger, kept: Kept) {
  const own = ledger.byOwner.get(kept.owner)!;
  ledger.all.delete(keyOf(kept.owner, kept.task.id));
  own.tasks.delete(kept.task.id);
  own.bytes -= kept.bytes;
  ledger.total -= kept.bytes;
  if (own.tasks.size === 0) ledger.byOwner.delete(kept.owner);
}

/** Keeps a copy of `task` for `owner`, then evicts down to the caller's bound and to the total. */
function put(ledger: Ledger, limits: TaskStoreLimits, owner: string, task: Task) {
  const kept = { owner, task: structuredClone(task), bytes: Buffer.byteLength(JSON.stringify(task)) };
  const own = ledger.byOwner.get(owner) ?? { tasks: new Map<string, Kept>(), bytes: 0 };
  ledger.byOwner.set(owner, own);
  const growth = kept.bytes - (own.tasks.get(task.id)?.bytes ?? 0);
  own.tasks.set(task.id, kept); // a re-saved task keeps its place in both orders
  ledger.all.set(keyOf(owner, task.id), kept);
  own.bytes += growth;
  ledger.total += growth;
  const drop = (old: Kept) => {
    remove(ledger, old);
  };
  evict(
    () => own.tasks.values(),
    () => own.bytes <= limits.callerBytes,
    kept,
    drop,
  );
  evict(
    () => ledger.all.values(),
    () => ledger.total <= limits.totalBytes,
    kept,
    drop,
  );
}

export function createBoundedTaskStore(limits: TaskStoreLimits = defaultTaskStoreLimits) {
  const ledger: Ledger = { all: new Map(), byOwner: new Map(), total: 0 };
  const keptOf = (owner: string) => ledger.byOwner.get(owner)?.tasks;
  const anonymous = new WeakMap<ServerCallContext, Map<string, Task>>(); // dies with the request's context
  const ownerOf = (context: ServerCallContext) => (context.user?.isAuthenticated ? context.user.userName : null);
  const anonymousOf = (context: ServerCallContext) => {
    const tasks = anonymous.get(context) ?? new Map<string, Task>();
    anonymous.set(context, tasks);
    return tasks;
  };

  const store: TaskStore = {
    save(task: Task, context: ServerCallContext) {
      const owner = ownerOf(context);
      if (owner === null) anonymousOf(context).set(task.id, structuredClone(task));
      else put(ledger, limits, owner, task);
      return Promise.resolve();
    },
    load(taskId: string, context: ServerCallContext) {
      const owner = ownerOf(context);
      const task = owner === null ? anonymous.get(context)?.get(taskId) : keptOf(owner)?.get(taskId)?.task;
      return Promise.resolve(task && structuredClone(task));
    },
    list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
      const owner = ownerOf(context);
      const tasks =
        owner === null
          ? (anonymous.get(context)?.values() ?? [])
          : [...(keptOf(owner)?.values() ?? [])].map((kept) => kept.task);
      return Promise.resolve(listTasks(tasks, params));
    },
  };
  const bytes = (owner?: string) => (owner === undefined ? ledger.total : (ledger.byOwner.get(owner)?.bytes ?? 0));
  return Object.assign(store, { bytes });
}
