// `npm run mock` stops with its npm process: SIGTERM (what a terminal, a process manager or CI sends) frees the port.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { freePort } from "../../mocks/prism.js";

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

describe("npm run mock", function () {
  this.timeout(120_000);

  it("frees its port when the npm process gets SIGTERM", async () => {
    const port = await freePort();
    const npm = spawn("npm", ["run", "mock"], {
      cwd: root,
      env: { ...process.env, MOCK_PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<void>((resolve) =>
      npm.once("exit", () => {
        resolve();
      }),
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`Prism did not start:\n${output}`));
      }, 90_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Prism is listening")) {
          clearTimeout(timer);
          resolve();
        }
      };
      npm.stdout.on("data", onData);
      npm.stderr.on("data", onData);
    });
    assert.equal(await portIsFree(port), false);
    npm.kill("SIGTERM");
    await exited;
    let free = false;
    for (let i = 0; i < 50 && !free; i++) {
      free = await portIsFree(port);
      if (!free) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(free, `port ${String(port)} is still taken after SIGTERM:\n${output}`);
  });
});
