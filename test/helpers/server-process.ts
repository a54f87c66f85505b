// Runs the server's entry point (`npm start`'s) as a child process, for boot errors, logs, locks and signals.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../../mocks/prism.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Everything written so far, stdout and stderr together. */
  output(): string;
  /** Resolves once the output matches (or rejects when the process exits first, or after `limitMs`). */
  waitFor(pattern: RegExp, limitMs?: number): Promise<string>;
  exited: Promise<number | null>;
}

/** Spawns `command args` from the repository root with a quiet, loopback-only environment plus `env`. */
export function spawnServer(env: Record<string, string>, command = process.execPath, args?: string[]): ServerProcess {
  const child = spawn(command, args ?? ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", DATABASE_URL: "pglite://memory", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      resolve(code);
    }),
  );
  const guard = setTimeout(() => child.kill("SIGKILL"), 120_000); // bounded whatever the test does
  void exited.then(() => {
    clearTimeout(guard);
  });
  function waitFor(pattern: RegExp, limitMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (!match) return;
        cleanup();
        resolve(match[0]);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no ${pattern} in: ${text}`));
      }, limitMs);
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        cleanup();
        if (pattern.test(text)) resolve(text);
        else reject(new Error(`exited: ${text}`));
      });
      check();
    });
  }
  return { child, output: () => text, waitFor, exited };
}

/** A silent server process on a free loopback port, resolved once `/readyz` answers 200 (at most `limitMs`). */
export async function startReadyServer(
  env: Record<string, string>,
  limitMs = 30_000,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "silent" },
    stdio: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < limitMs / 200; i++) {
    if ((await fetch(`${url}/readyz`).catch(() => null))?.status === 200) return { url, child };
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error("server process did not become ready");
}
