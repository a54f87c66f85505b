// Mocha root-hook plugin (.mocharc.json `require`): fails a test file that leaves handles behind — timers, sockets,
// servers, child processes — naming them, since mocha runs without `exit: true` and one leaked handle would keep
// the whole run from ending. It counts `process.getActiveResourcesInfo()` (ref'd resources only: an unref'd timer
// does not hold the process) before the file's first suite and after its last, giving sockets a short grace to
// close. LEAK_CHECK_STACKS=1 also records where each timer and handle was created (async_hooks; slower). A child
// process a file left running, or one still running when the process exits, is killed with its process group, so
// a failed run leaves nothing behind.
import { createHook } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import { ChildProcess } from "node:child_process";
import { Server, Socket } from "node:net";
import type { Context, Hook, RootHookObject, Suite } from "mocha";

/** How long a file's sockets and servers may take to finish closing after its last hook. */
const graceMs = 3000;

type Counts = Map<string, number>;

interface Snapshot {
  counts: Counts;
  handles: Set<object>;
  takenAt: number;
}

const snapshots = new Map<string, Snapshot>();

/** `process._getActiveHandles()`: Node's ref'd handle objects (sockets, servers, child processes), for their names. */
const activeHandles = (): object[] => (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();

function countResources(): Counts {
  const counts: Counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  return counts;
}

function snapshot(): Snapshot {
  return { counts: countResources(), handles: new Set(activeHandles()), takenAt: Date.now() };
}

/** Resource types with more ref'd instances now than at the snapshot: "2 × Timeout". */
function grown(before: Counts, after: Counts): string[] {
  return [...after]
    .filter(([type, n]) => n > (before.get(type) ?? 0))
    .map(([type, n]) => `${String(n - (before.get(type) ?? 0))} × ${type}`);
}

function describeHandle(handle: object): string {
  if (handle instanceof ChildProcess) return `child process ${String(handle.pid)}: ${handle.spawnargs.join(" ")}`;
  if (handle instanceof Server) return `server listening on ${JSON.stringify(handle.address())}`;
  if (handle instanceof Socket) {
    const { localAddress, localPort, remoteAddress, remotePort } = handle;
    return remoteAddress
      ? `socket ${String(localAddress)}:${String(localPort)} -> ${remoteAddress}:${String(remotePort)}`
      : "socket (pipe or stdio)";
  }
  return handle.constructor.name;
}

// Opt-in: async_hooks slows every promise, so creation stacks are recorded only when asked for.
const traced = new Map<number, { type: string; resource: object; stack: string; at: number }>();
const tracedTypes = new Set(["Timeout", "Immediate", "TCPWRAP", "TCPSERVERWRAP", "PIPEWRAP", "PROCESSWRAP"]);
if (process.env.LEAK_CHECK_STACKS === "1")
  createHook({
    init(id, type, _trigger, resource: object) {
      if (!tracedTypes.has(type)) return;
      const stack = (new Error().stack ?? "").split("\n").slice(3, 11).join("\n");
      traced.set(id, { type, resource, stack, at: Date.now() });
    },
    destroy(id) {
      traced.delete(id);
    },
  }).enable();

/** Kills a child and, when it leads one (spawned `detached`), its process group: what it started goes with it. */
function killChild(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  for (const target of [-child.pid, child.pid])
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // no such group (the child is not a group leader), or already gone
    }
}

/** Kills a child and waits (up to 5 s) for its exit, so this process reaps it: no zombie is left for PID 1. */
function killAndReap(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => {
    const guard = setTimeout(resolve, 5_000).unref();
    child.once("exit", () => {
      clearTimeout(guard);
      resolve();
    });
  });
  killChild(child);
  return exited;
}

const children = () => activeHandles().filter((handle): handle is ChildProcess => handle instanceof ChildProcess);

// Also on a worker's SIGTERM, which would otherwise end it without running 'exit' listeners.
process.once("exit", () => {
  children().forEach(killChild);
});
process.once("SIGTERM", () => {
  children().forEach(killChild);
  process.exit(143);
});

/** Mocha's timeout timer for the running hook is no leak. */
const mochaTimer = "mocha/lib/runnable.js";
const isRefd = (resource: object) => (resource as { hasRef?: () => boolean }).hasRef?.() ?? true;

/** Where the still-open traced resources created since the snapshot came from (LEAK_CHECK_STACKS=1 only). */
function creationStacks(since: number): string[] {
  return [...traced.values()]
    .filter((entry) => entry.at >= since && isRefd(entry.resource) && !entry.stack.includes(mochaTimer))
    .map((entry) => `${entry.type} created\n${entry.stack}`);
}

/** What the file left open, or nothing once the grace is over and the counts are back to the snapshot's. */
async function leftOpen(before: Snapshot): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  let types = grown(before.counts, countResources());
  while (types.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50).unref());
    types = grown(before.counts, countResources());
  }
  if (types.length === 0) return [];
  const handles = activeHandles().filter((handle) => !before.handles.has(handle));
  await Promise.all(handles.filter((handle) => handle instanceof ChildProcess).map(killAndReap));
  return [...types, ...handles.map(describeHandle), ...creationStacks(before.takenAt)];
}

/**
 * Appends the file's wall time (its hooks included, the leak check's grace not) to the summary reporter's file
 * (MOCHA_FILE_TIMES, which it sets before any worker starts): a parallel run's reporter sees only replayed events,
 * so the time is measured here, where the file runs, in a worker or in mocha's own process alike.
 */
function recordFileTime(file: string, ms: number): void {
  const times = process.env.MOCHA_FILE_TIMES;
  if (times) appendFileSync(times, `${JSON.stringify({ file, ms })}\n`);
}

/** Mocha keeps a suite's `before` hooks in this (private) array; the snapshot must run before the file's own. */
const beforeHooksOf = (suite: Suite) => (suite as unknown as { _beforeAll: Hook[] })._beforeAll;

/** Adds a snapshot hook in front of each file's first top-level suite and a check after its last one. */
function checkEachFile(root: Suite): void {
  const byFile = new Map<string, Suite[]>();
  for (const suite of root.suites) {
    if (!suite.file) continue;
    byFile.set(suite.file, [...(byFile.get(suite.file) ?? []), suite]);
  }
  for (const [file, suites] of byFile) {
    const first = suites[0];
    // Async like the check, so each runs under one mocha timeout timer and the two counts compare like for like.
    first.beforeAll("leak check: snapshot of open handles", async () => {
      await Promise.resolve();
      snapshots.set(file, snapshot());
    });
    const hooks = beforeHooksOf(first);
    hooks.unshift(...hooks.splice(-1));
    suites[suites.length - 1].afterAll("leak check: no handles left open", async function (this: Context) {
      const before = snapshots.get(file);
      if (!before) return; // none of the file's tests ran (--grep)
      this.timeout(graceMs + 10_000);
      recordFileTime(file, Date.now() - before.takenAt);
      const leaks = await leftOpen(before);
      if (leaks.length > 0)
        throw new Error(`${file} left handles open (they would keep mocha from exiting):\n  ${leaks.join("\n  ")}`);
    });
  }
}

export const mochaHooks: RootHookObject = {
  beforeAll(this: Context) {
    const root = this.test?.parent;
    if (root) checkEachFile(root);
  },
};
