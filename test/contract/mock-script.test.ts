// `npm run mock` stops with its npm process on every signal a terminal, a process manager or CI sends (Prism goes
// too, its port freed), and its answers do not contradict the contract (replay header, status of a problem).
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort } from "../../mocks/prism.js";
import { withoutCoverage } from "../helpers/coverage-env.js";
import { jsonRequest } from "../helpers/request.js";
import { until } from "../helpers/wait.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** True when nothing listens on the port any more (we can bind it ourselves). */
const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once("error", () => {
      resolve(false);
    });
    server.listen(port, "127.0.0.1", () => {
      server.close(() => {
        resolve(true);
      });
    });
  });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

interface Mock {
  npm: ChildProcess;
  port: number;
  prismPid: number;
  exited: Promise<void>;
  output: () => string;
}

async function startMock(): Promise<Mock> {
  const port = await freePort();
  const npm = spawn("npm", ["run", "mock"], {
    cwd: root,
    env: { ...withoutCoverage(), MOCK_PORT: String(port) }, // npm, mocks/ and Prism: nothing c8 reports
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) =>
    npm.once("exit", () => {
      resolve();
    }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the mock did not start:\n${output}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Prism is listening on .*\(Prism pid \d+\)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    npm.stdout.on("data", onData);
    npm.stderr.on("data", onData);
  });
  return { npm, port, prismPid: Number(/pid (\d+)/.exec(line)![1]), exited, output: () => output };
}

describe("npm run mock", function () {
  this.timeout(180_000);

  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const)
    it(`ends Prism and frees its port when the npm process gets ${signal}`, async () => {
      const mock = await startMock();
      assert.equal(await portIsFree(mock.port), false);
      assert.ok(isAlive(mock.prismPid));
      mock.npm.kill(signal);
      await mock.exited;
      const wait = { timeoutMs: 10_000, intervalMs: 100 };
      await until(() => portIsFree(mock.port), {
        ...wait,
        message: () => `the port freed after ${signal}:\n${mock.output()}`,
      });
      await until(() => !isAlive(mock.prismPid), { ...wait, message: `Prism to stop after ${signal}` });
    });

  describe("answers", () => {
    let mock: Mock;
    before(async () => (mock = await startMock()));
    after(async () => {
      mock?.npm.kill("SIGTERM");
      await mock?.exited;
    });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      jsonRequest(`http://127.0.0.1:${mock.port}`, "POST", `/api/dispatch/v1${path}`, {
        headers: { "x-api-key": "dispatch_test_mock", ...headers },
        body,
      });
    const order = { trade: "plumbing", location: { state: "TX" }, description: "Leak." };

    it("sends Idempotent-Replayed only when an Idempotency-Key is repeated", async () => {
      const first = await post("/order", order, { "idempotency-key": "mock-replay-1" });
      assert.equal(first.status, 201);
      assert.equal(first.headers.get("idempotent-replayed"), null);
      const again = await post("/order", order, { "idempotency-key": "mock-replay-1" });
      assert.equal(again.headers.get("idempotent-replayed"), "true");
      const plain = await post("/order", order);
      assert.equal(plain.headers.get("idempotent-replayed"), null);
    });

    it("answers Prefer: code=402 with a 402 Payment Required problem, not a 500's title", async () => {
      const quote = await post("/quote", { trade: "plumbing", location: { state: "TX" } }, { prefer: "code=402" });
      assert.equal(quote.status, 402);
      assert.equal(quote.statusText, "Payment Required");
      const body = (await quote.json()) as { status: number; title: string };
      assert.deepEqual([body.status, body.title], [402, "Payment Required"]);
    });
  });
});
