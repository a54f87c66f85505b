// Output formats, --help, --version and completion scripts.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { operations } from "../../cli/generated/operations.js";
import { plainText } from "../../cli/help.js";
import { bin, runCli, startRecorder, type Recorder } from "./run-cli.js";

const execFileAsync = promisify(execFile);

const { version } = JSON.parse(readFileSync(new URL("../../cli/package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("cli", function () {
  this.timeout(60_000);

  describe("--output", () => {
    let server: Recorder;
    const answer = {
      id: "ord_1",
      status: "dispatched",
      location: { state: "TX" },
      events: [
        { status: "pending_dispatch", at: "t1" },
        { status: "dispatched", at: "t2" },
      ],
    };
    before(async () => {
      server = await startRecorder();
      server.answer = { status: 200, body: answer };
    });
    after(async () => server?.stop());

    it("defaults to JSON when stdout is not a terminal", async () => {
      const run = await runCli(["orders", "get", "ord_1", "--base-url", server.url]);
      assert.deepEqual(JSON.parse(run.stdout), answer);
    });

    it("prints yaml", async () => {
      const run = await runCli(["orders", "get", "ord_1", "--base-url", server.url, "--output", "yaml"]);
      assert.deepEqual(parse(run.stdout), answer);
    });

    it("prints fields and the one list as tables", async () => {
      const run = await runCli(["orders", "get", "ord_1", "--base-url", server.url, "-o", "table"]);
      const lines = run.stdout.split("\n").map((l) => l.trimEnd());
      assert.match(lines[0], /^FIELD\s+VALUE$/);
      assert.ok(lines.some((l) => /^location\.state\s+TX$/.test(l)));
      assert.ok(lines.includes("EVENTS:"));
      assert.ok(lines.some((l) => /^dispatched\s+t2$/.test(l)));
    });

    describe("tables and the terminal width", () => {
      const long = { id: "ord_1", seal: `seal_${"ab".repeat(32)}`, description: "word ".repeat(30).trim() };
      before(() => {
        server.answer = { status: 200, body: long };
      });
      after(() => {
        server.answer = { status: 200, body: answer };
      });

      it("never shortens or wraps a table when stdout is piped", async () => {
        const run = await runCli(["orders", "get", "ord_1", "--base-url", server.url, "-o", "table"]);
        assert.ok(run.stdout.split("\n").includes(`description  ${long.description}`), run.stdout);
      });

      it("wraps to the columns of a terminal (util-linux script), keeping the seal whole", async function () {
        if (!existsSync("/usr/bin/script")) this.skip();
        const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("DISPATCH_")));
        const command = `stty cols 50; ${process.execPath} ${bin} orders get ord_1 --base-url ${server.url}`;
        const { stdout } = await execFileAsync("script", ["-qec", command, "/dev/null"], {
          env: { ...env, DISPATCH_CONFIG: join(tmpdir(), "dispatch-no-such-config.json") },
        });
        const lines = stdout.split(/\r?\n/).filter(Boolean);
        assert.ok(lines.includes(`seal         ${long.seal}`), stdout);
        assert.ok(
          lines.filter((l) => !l.includes(long.seal)).every((l) => l.length <= 50),
          stdout,
        );
        assert.ok(lines.filter((l) => l.includes("word")).length > 1, stdout);
      });
    });

    it("takes the format from DISPATCH_OUTPUT", async () => {
      const run = await runCli(["orders", "get", "ord_1", "--base-url", server.url], {
        env: { DISPATCH_OUTPUT: "yaml" },
      });
      assert.match(run.stdout, /^id: ord_1$/m);
    });
  });

  describe("--help", () => {
    it("shows the summary, the flags with enums, bounds and defaults, and Examples", async () => {
      const run = await runCli(["quote", "--help"]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /^Quote a job$/m);
      const flat = run.stdout.replace(/\s+/g, " ");
      assert.match(
        flat,
        /--urgency <urgency> How soon the work is needed\. Default routine\. \(one of: emergency, urgent, routine, scheduled; server default: "routine"\)/,
      );
      assert.match(
        flat,
        /--state <state> Two-letter USPS code of a US state.* \(required; one of: AL, AK, .* AS, MP\)/,
      );
      assert.match(
        flat,
        /--nte-cents <n> Not-to-exceed budget in cents \(at most 1000000 USD\)\. \(>= 1; <= 100000000\)/,
      );
      assert.match(run.stdout, /Examples:\n {2}\$ dispatch quote --trade plumbing --state TX .*--nte-cents 45000/);
    });

    it("has an Examples section on every operation command", async () => {
      const commands = operations.map((o) => (o.operationId === "callMcp" ? ["mcp", "tools"] : [...o.command]));
      const runs = await Promise.all(commands.map((words) => runCli([...words, "--help"])));
      runs.forEach((run, i) => {
        assert.equal(run.code, 0, commands[i].join(" "));
        assert.match(run.stdout, /\nExamples:\n {2}\$ dispatch /, commands[i].join(" "));
      });
    });

    it("shows the contract's markdown as plain text and commands instead of operationIds", async () => {
      const groups = [...new Set(operations.map((o) => o.command.slice(0, -1).join(" ")).filter(Boolean))];
      const commands = [[], ...groups.map((g) => g.split(" ")), ...operations.map((o) => [...o.command])];
      const runs = await Promise.all(commands.map((words) => runCli([...words, "--help"])));
      const ids = new RegExp(`\\b(${operations.map((o) => o.operationId).join("|")})\\b`);
      runs.forEach((run, i) => {
        const name = `dispatch ${commands[i].join(" ")} --help`;
        assert.equal(run.code, 0, name);
        assert.doesNotMatch(run.stdout, /`|(?<!\*)\*\*(?!\*)|\]\(/, name);
        assert.doesNotMatch(run.stdout, ids, name);
      });
      const events = runs[commands.findIndex((c) => c.join(" ") === "orders events")].stdout;
      assert.match(events.replace(/\s+/g, " "), /Like dispatch events list, for one order/);
    });

    it("renders emphasis, code spans, links and list markers as plain text", () => {
      assert.equal(
        plainText(
          "**Idempotency:** `reference_id` is *unique*; see [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457)",
        ),
        "Idempotency: reference_id is unique; see RFC 9457 (https://www.rfc-editor.org/rfc/rfc9457)",
      );
      assert.equal(
        plainText("### Notes\n* one `listOrders`\n* keys print as ****"),
        "Notes\n- one dispatch orders list\n- keys print as ****",
      );
      assert.equal(plainText("snake_case_name and 2 * 3 * 4"), "snake_case_name and 2 * 3 * 4");
    });

    it("lists the commands and the exit codes at the top level", async () => {
      const run = await runCli(["--help"]);
      assert.match(run.stdout, /Commands:\n {2}probe \[options\] <url>/);
      assert.match(run.stdout, /Exit codes: 0 ok, 1 unexpected, 2 usage/);
    });

    it("points at every guide in docs/ at the top level, and at nothing else", async () => {
      const run = await runCli(["--help"]);
      const listed = [
        ...(/\nGuides, in docs\/[^\n]*\n((?: {2}\S+\.md .*\n)+)/.exec(run.stdout)?.[1] ?? "").matchAll(/^ {2}(\S+)/gm),
      ];
      const docs = readdirSync(new URL("../../docs/", import.meta.url)).filter((name) => name.endsWith(".md"));
      assert.deepEqual(listed.map((m) => m[1]).sort(), docs.sort());
    });

    it("exits 2 with help on stderr for a group without a subcommand", async () => {
      const run = await runCli(["admin"]);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, /Usage: dispatch admin/);
    });
  });

  it("prints the version of cli/package.json with --version", async () => {
    const run = await runCli(["--version"]);
    assert.deepEqual([run.code, run.stdout], [0, `${version}\n`]);
  });

  describe("completion", () => {
    for (const shell of ["bash", "zsh"]) {
      it(`prints a ${shell} script naming the commands`, async () => {
        const run = await runCli(["completion", shell]);
        assert.equal(run.code, 0);
        assert.match(run.stdout, /complete -F _dispatch dispatch/);
        assert.match(run.stdout, /"admin keys"\) echo "list create revoke /);
      });
    }

    for (const shell of ["bash", "zsh"])
      it(`names the values of enum flags in the ${shell} script`, async () => {
        const run = await runCli(["completion", shell]);
        assert.match(run.stdout, /"quote --urgency"\) echo "emergency urgent routine scheduled"/);
        assert.match(run.stdout, /"estimate --trade"\) echo "plumbing electrical hvac .*appliance_repair"/);
        assert.match(run.stdout, /"quote --state"\) echo "AL AK .* MP"/);
      });

    describe("the bash script under bash -c", () => {
      let dir: string;
      let script: string;
      before(async () => {
        dir = mkdtempSync(join(tmpdir(), "dispatch-completion-"));
        writeFileSync(join(dir, "order.json"), "{}");
        writeFileSync(join(dir, "other.txt"), "");
        script = join(dir, "dispatch.bash");
        writeFileSync(script, (await runCli(["completion", "bash"])).stdout);
      });
      after(() => {
        rmSync(dir, { recursive: true, force: true });
      });
      /** The candidates bash offers for the words typed so far (the last word is the one being completed). */
      const candidates = async (...words: string[]) => {
        const line = `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${String(words.length - 1)}; _dispatch; printf '%s\\n' "\${COMPREPLY[@]}"`;
        const { stdout } = await execFileAsync("bash", ["-c", line], { cwd: dir });
        return stdout.split("\n").filter(Boolean);
      };

      it("offers an enum flag's values", async () => {
        assert.deepEqual(await candidates("dispatch", "quote", "--urgency", ""), [
          "emergency",
          "urgent",
          "routine",
          "scheduled",
        ]);
        assert.deepEqual(await candidates("dispatch", "quote", "--trade", "hvac", "--state", "T"), ["TN", "TX"]);
        assert.deepEqual(await candidates("dispatch", "orders", "get", "-o", "y"), ["yaml"]);
      });

      it("offers files after @ for --data, also when the shell split the @ off", async () => {
        assert.deepEqual(await candidates("dispatch", "order", "--data", "@or"), ["@order.json"]);
        assert.deepEqual(await candidates("dispatch", "order", "--data", "@", "or"), ["order.json"]);
      });

      it("still offers subcommands and flags elsewhere", async () => {
        assert.deepEqual(await candidates("dispatch", "orders", "ge"), ["get"]);
        assert.ok((await candidates("dispatch", "quote", "--urg")).includes("--urgency"));
      });
    });

    it("exits 2 for an unknown shell", async () => {
      const run = await runCli(["completion", "fish"]);
      assert.equal(run.code, 2);
    });
  });
});
