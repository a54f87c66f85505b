// Starts Stoplight Prism on openapi.yaml as a mock or as a validating proxy in front of a real server.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const prismBin = `${root}node_modules/.bin/prism`;

export interface PrismHandle {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface PrismOptions {
  /** `mock` answers from the contract's examples; `proxy` forwards to `upstream` and validates both ways. */
  mode: "mock" | "proxy";
  upstream?: string;
  port?: number;
  /** Proxy only: turn every contract violation into a 500 with `sl-violations` (default true). */
  errors?: boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => {
        resolve(port);
      });
    });
  });
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      reject(new Error(`Prism did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Prism is listening")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${output}`));
    });
  });
}

export async function startPrism(options: PrismOptions): Promise<PrismHandle> {
  const port = options.port ?? (await freePort());
  const args =
    options.mode === "mock"
      ? ["mock", "openapi.yaml", "-h", "127.0.0.1", "-p", String(port)]
      : [
          "proxy",
          "openapi.yaml",
          options.upstream!,
          "-h",
          "127.0.0.1",
          "-p",
          String(port),
          ...(options.errors === false ? [] : ["--errors"]),
        ];
  // Not under c8's coverage (NODE_V8_COVERAGE, which `npm test` sets and child_process passes on unless the env has
  // the key): c8 reports none of Prism's code, and recording it slowed every request a proxy validates (see
  // test/helpers/coverage-env.ts).
  const env = { ...process.env, NODE_V8_COVERAGE: undefined };
  const child = spawn(prismBin, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  await waitForListening(child, 60_000);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once("exit", () => {
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
