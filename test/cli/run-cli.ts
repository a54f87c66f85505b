// Runs `dispatch` in-process or as the bin in a child process, and a recording HTTP server to see what it sent.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { runCli as runInProcess } from "../../cli/index.js";
import { resetDeprecationWarning } from "../../sdk/deprecation.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
export const bin = `${root}cli/bin/dispatch.cjs`;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  /** Stdout and stderr are a terminal this wide (runCli only); else piped. */
  tty?: { columns: number };
}

/** A clean environment: no DISPATCH_* from the caller, no real config file. */
function cleanEnv(env: Record<string, string> | undefined): Record<string, string | undefined> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DISPATCH_")));
  return { ...inherited, DISPATCH_CONFIG: `${root}test/tmp/no-such-config.json`, ...env };
}

/** Runs `dispatch args…` in-process (cli/index.ts runCli) with a clean environment, as one fresh invocation. */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  resetDeprecationWarning(); // the SDK says it once per process, and each run stands for one process
  return runInProcess(args, { env: cleanEnv(options.env), stdin: options.input, tty: options.tty });
}

type BinOptions = RunOptions & { cwd?: string; timeoutMs?: number; onStdout?: (soFar: string) => void };

/** A `dispatch` bin running as a child process: what it printed so far, its exit, and a SIGTERM stop. */
export interface RunningBin {
  child: ChildProcessWithoutNullStreams;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the exit code once the process closed (null when a signal ended it). */
  closed: Promise<number | null>;
  /** SIGTERM, then waits until it closed. */
  stop(): Promise<void>;
}

/** Starts the `dispatch` bin as a child process (stdin left open): for commands that keep running (listen). */
export function startBin(args: string[], options: BinOptions = {}): RunningBin {
  const child = spawn(process.execPath, [bin, ...args], {
    env: cleanEnv(options.env),
    cwd: options.cwd ?? root,
    stdio: ["pipe", "pipe", "pipe"],
    timeout: options.timeoutMs, // then killed with SIGTERM: `code` is null
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
    options.onStdout?.(stdout);
  });
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const closed = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    closed,
    async stop() {
      child.kill("SIGTERM");
      await closed;
    },
  };
}

/** Runs the `dispatch` bin as a child process: for what crosses the process boundary (exit status, signals, pipes). */
export async function runBin(args: string[], options: BinOptions = {}): Promise<CliRun> {
  const running = startBin(args, options);
  running.child.stdin.end(options.input ?? "");
  const code = await running.closed;
  return { code, stdout: running.stdout, stderr: running.stderr };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  /** What the next answers are (default 200 `{"ok":true}`). */
  answer: { status: number; body: unknown; raw?: boolean; headers?: Record<string, string> };
  stop(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const recorder = { requests, answer: { status: 200, body: { ok: true } } } as Recorder;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(recorder.answer.status, { "content-type": "application/json", ...recorder.answer.headers });
      const { body: answer, raw } = recorder.answer;
      res.end(raw ? String(answer) : JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  recorder.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  recorder.stop = () =>
    new Promise((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  return recorder;
}

/** Exactly one line on stderr. */
export const oneLine = (text: string) => text.endsWith("\n") && !text.slice(0, -1).includes("\n");
