// README's way to start the server through npx on an older Node stops on a SIGTERM sent to npx, as a supervisor or
// `kill <pid>` sends it: npm and the server exit and the port closes, nothing is left running. The command is read
// from README and run with this Node (its `-y -p node@24` dropped: a test fetches nothing from the registry), so
// npx runs its command through a shell exactly as README's does.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../mocks/prism.js";
import { ensureFreshBuild, root } from "../helpers/server-process.js";
import { sleep } from "../helpers/wait.js";

/** README's npx command that starts the server, as printed. */
function readmeStart(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const command = /`(npx -y -p node@24 [^`]*npm start[^`']*'?)`/.exec(readme)?.[1];
  assert.ok(command, "README shows no `npx -y -p node@24 … npm start`");
  return command;
}

/** The same command with this Node: `-- npm start` is npx's quoted script `'npm' start`, so it becomes `-c`. */
function offline(command: string): string[] {
  const rest = command.replace(/^npx -y -p node@24 /, "");
  if (rest.startsWith("-- ")) return ["-c", rest.slice(3)];
  const script = /^-c '([^']*)'$/.exec(rest)?.[1];
  assert.ok(script, `not an npx command this test knows: ${command}`);
  return ["-c", script];
}

/** Whether any process of the group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("README's npx start", function () {
  this.timeout(180_000);
  before(ensureFreshBuild);

  it("stops npm and the server on a SIGTERM to npx", async () => {
    const command = readmeStart();
    const port = await freePort();
    const npx = spawn("npx", offline(command), {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: "pglite://memory",
        LOG_LEVEL: "warn",
      },
      stdio: "ignore",
      detached: true, // its own process group: what is left of it after the signal can be seen, and cleaned up
    });
    const pgid = npx.pid!;
    try {
      const url = `http://127.0.0.1:${String(port)}/readyz`;
      for (let i = 0; (await fetch(url).catch(() => null))?.status !== 200; i++) {
        assert.ok(i < 600 && npx.exitCode === null, "the server did not start");
        await sleep(200);
      }
      process.kill(npx.pid!, "SIGTERM"); // npx alone, as a supervisor signals the process it started
      for (let i = 0; groupAlive(pgid); i++) {
        assert.ok(i < 150, `${command}: processes still running 30 s after the SIGTERM to npx`);
        await sleep(200);
      }
      assert.equal(await fetch(url).catch(() => null), null, "the port still answers");
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
    }
  });
});
