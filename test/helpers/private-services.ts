// Throw-away PostgreSQL and Redis servers on their own ports, so fault tests can stop and start them
// without touching the machine's shared services.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../mocks/prism.js";

const pgBin = "/usr/lib/postgresql/15/bin";
// PostgreSQL refuses to run as root; run its tools as the `postgres` user when we are root.
const asPostgres = (cmd: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "dispatch-pg-"));
  chmodSync(dir, 0o777);
  const data = join(dir, "data");
  const port = await freePort();
  execFileSync(...asPostgres(`${pgBin}/initdb`, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]), {
    stdio: "ignore",
  });
  const ctl = (action: string, extra: string[] = []) =>
    execFileSync(...asPostgres(`${pgBin}/pg_ctl`, ["-D", data, "-w", "-l", join(dir, "log"), ...extra, action]), {
      stdio: "ignore",
    });
  const start = () => ctl("start", ["-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => ctl("stop", ["-m", "fast"]),
    destroy() {
      try {
        ctl("stop", ["-m", "immediate"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    for (let i = 0; i < 50; i++) {
      try {
        execFileSync("redis-cli", ["-p", String(port), "ping"], { stdio: "ignore" });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error("redis did not start");
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child?.exitCode !== null) {
          resolve();
          return;
        }
        child.once("exit", () => {
          resolve();
        });
        child.kill("SIGKILL");
      }),
  };
}
