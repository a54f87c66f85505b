// Arrival windows at the command line: `dispatch quote` lists a quote's windows (the table one per row, START and
// END; JSON its `arrival_windows`), and `--window` (cli/interval.ts, an interval flag of the command table) books one
// with `dispatch order` and moves an order to one with `dispatch orders reschedule`: START/END as given, START alone
// for the two hours from it in its offset, anything else, or beside --start/--end, a usage error with nothing sent.
// Against the server, on every test database, with an Anchorage contractor of its own that works round the clock
// every day (the demo pool has nobody there), so the windows do not depend on the hour the suite runs.
import assert from "node:assert/strict";
import { ExitCode } from "../../cli/errors.js";
import { anchorageContractor } from "../fixtures/requests.js";
import { databases, startTestServer, type TestServer } from "../helpers/server.js";
import { runCli, startRecorder, type Recorder } from "./run-cli.js";

interface Window {
  start: string;
  end: string;
}

const job = ["--trade", "painting", "--state", "AK", "--city", "Anchorage"];
const order = ["order", ...job, "--description", "Repaint the hallway."];
const twoHours = 2 * 3_600_000;
const always = [{ start: "00:00", end: "24:00" }];
const allWeek = Object.fromEntries(
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((day) => [day, always]),
);

/** The windows the table prints under ARRIVAL_WINDOWS: one row each, START, END then the quote's CONFIDENCE. */
function tableWindows(table: string): (Window & { confidence: string })[] {
  const lines = table.slice(table.indexOf("ARRIVAL_WINDOWS:")).split("\n").slice(1);
  assert.match(lines[0], /^START\s+END\s+CONFIDENCE$/, table);
  assert.match(lines[1], /^-+\s+-+\s+-+$/, table);
  return lines
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const [start, end, confidence, ...rest] = line.trim().split(/\s+/);
      assert.deepEqual(rest, [], line);
      return { start, end, confidence };
    });
}

describe("cli arrival windows", function () {
  this.timeout(60_000);

  describe("--window (recording server)", () => {
    let server: Recorder;
    const send = (args: string[]) =>
      runCli([...args, "--base-url", server.url], { env: { DISPATCH_API_KEY: "dispatch_test_in" } });
    before(async () => (server = await startRecorder()));
    beforeEach(() => (server.requests.length = 0));
    after(() => server?.stop());

    const sent: [string, string, Window][] = [
      [
        "START alone: the two hours from it, in its offset",
        "2026-11-24T10:00:00-06:00",
        { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" },
      ],
      [
        "START alone late in the day: the end on the next date, same offset",
        "2026-11-24T23:00:00-09:00",
        { start: "2026-11-24T23:00:00-09:00", end: "2026-11-25T01:00:00-09:00" },
      ],
      ["START alone in UTC", "2026-11-24T16:00:00Z", { start: "2026-11-24T16:00:00Z", end: "2026-11-24T18:00:00Z" }],
      [
        "START/END as given",
        "2026-11-24T10:00:00-06:00/2026-11-24T12:00:00-06:00",
        { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" },
      ],
    ];
    for (const [what, window, body] of sent)
      it(`order sends arrival_window for ${what}`, async () => {
        const run = await send([...order, "--window", window]);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(JSON.parse(server.requests[0].body).arrival_window, body);
      });

    it("orders reschedule sends the window as its arrival_window", async () => {
      const run = await send(["orders", "reschedule", "ord_1", "--window", "2026-11-24T10:00:00-06:00"]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(server.requests[0].url, "/api/dispatch/v1/orders/ord_1/reschedule");
      assert.deepEqual(JSON.parse(server.requests[0].body), {
        arrival_window: { start: "2026-11-24T10:00:00-06:00", end: "2026-11-24T12:00:00-06:00" },
      });
    });

    const refused: [string, string[], RegExp][] = [
      ["not a date-time", ["--window", "tomorrow"], /--window must start with a date-time with its offset/],
      ["a date-time without offset", ["--window", "2026-11-24T10:00:00"], /must start with a date-time/],
      ["an END without offset", ["--window", "2026-11-24T10:00:00Z/2026-11-24T12:00:00"], /must end with a date/],
      ["an END before START", ["--window", "2026-11-24T10:00:00Z/2026-11-24T08:00:00Z"], /must end after it starts/],
      ["three parts", ["--window", "2026-11-24T10:00:00Z/2026-11-24T12:00:00Z/x"], /is not one interval/],
      [
        "--window beside --start",
        ["--window", "2026-11-24T10:00:00Z", "--start", "2026-11-24T10:00:00Z"],
        /'--window <start\/end>' cannot be used with option '--start <value>'/,
      ],
      [
        "--window beside --end",
        ["--end", "2026-11-24T12:00:00Z", "--window", "2026-11-24T10:00:00Z"],
        /cannot be used with option '--end <value>'/,
      ],
    ];
    for (const [what, args, message] of refused)
      it(`refuses ${what}: exit ${String(ExitCode.usage)}, nothing sent`, async () => {
        const run = await send([...order, ...args]);
        assert.equal(run.code, ExitCode.usage, run.stderr);
        assert.match(run.stderr, message);
        assert.equal(server.requests.length, 0);
      });

    it("says both forms in --help, with an example of each", async () => {
      const orderHelp = await runCli(["order", "--help"], { env: {} });
      assert.match(
        orderHelp.stdout,
        /--window <start\/end> +Arrival window .*START\/END.*START alone for the 2 hours/s,
      );
      // START alone and START/END, each taken from a quote in the same line (the examples set nothing beforehand)
      assert.match(
        orderHelp.stdout,
        /\$ dispatch order --trade plumbing --state TX .* --window "\$\(dispatch quote --trade plumbing --state TX --query 'arrival_windows\[0\]\.start'\)"\n/,
      );
      const rescheduleHelp = await runCli(["orders", "reschedule", "--help"], { env: {} });
      assert.match(
        rescheduleHelp.stdout,
        /\$ dispatch orders reschedule "\$ORDER_ID" --window "\$\(dispatch quote .* --query "arrival_windows\[-1\]\.\[start, end\] \| join\('\/', @\)"\)"/,
      );
    });
  });

  for (const db of databases()) {
    describe(`against the server (${db.name})`, () => {
      let t: TestServer;
      let env: Record<string, string>;
      const cli = (args: string[]) => runCli([...args, "--base-url", t.url], { env });
      before(async () => {
        t = await startTestServer(db);
        env = { DISPATCH_API_KEY: (await t.issueKey({ account: "cli-windows" })).key };
        await t.app.services.contractors.create({
          ...anchorageContractor("painting", "Round-the-clock Anchorage Painting"),
          working_hours: allWeek,
          capacity: { concurrent_jobs: 4, jobs_per_day: 12 },
        });
      });
      after(() => t?.stop());

      /** The table's windows and the JSON's of a quote made right after it: the same, unless a window opened or
       * closed between the two (at most once in a second), then read again. */
      async function quoteBothWays(): Promise<{ rows: Window[]; json: (Window & { confidence: string })[] }> {
        for (;;) {
          const table = await cli(["quote", ...job, "--urgency", "urgent", "--output", "table"]);
          const json = await cli(["quote", ...job, "--urgency", "urgent", "--output", "json"]);
          assert.equal(table.code, 0, table.stderr);
          assert.equal(json.code, 0, json.stderr);
          const rows = tableWindows(table.stdout);
          const windows = (JSON.parse(json.stdout) as { arrival_windows: (Window & { confidence: string })[] })
            .arrival_windows;
          if (JSON.stringify(rows) === JSON.stringify(windows)) return { rows, json: windows };
        }
      }

      it("quote lists the windows: one per table row (START, END, CONFIDENCE) and as arrival_windows in JSON", async () => {
        const { rows, json } = await quoteBothWays();
        assert.ok(rows.length >= 11, `an urgent horizon of 24 h, worked round the clock: ${rows.length} windows`);
        for (const window of json) {
          assert.deepEqual(Object.keys(window), ["start", "end", "confidence"]);
          assert.ok(["high", "medium", "low"].includes(window.confidence), window.confidence);
          assert.match(window.start, /^\d{4}-\d{2}-\d{2}T\d{2}:00:00-0[89]:00$/, "an even hour, Anchorage's offset");
          assert.equal(Date.parse(window.end) - Date.parse(window.start), twoHours);
          assert.equal(Number(window.start.slice(11, 13)) % 2, 0);
        }
      });

      it("order --window START books the row's window; orders reschedule --window START/END moves it", async () => {
        const { rows } = await quoteBothWays();
        // the latest windows: a window closes 30 minutes before its end, and the horizon's last ones stay open
        const [other, latest] = rows.slice(-2).map(({ start, end }) => ({ start, end }));
        const ordered = await cli([...order, "--urgency", "urgent", "--window", latest.start, "--output", "json"]);
        assert.equal(ordered.code, 0, ordered.stderr);
        const { order: created } = JSON.parse(ordered.stdout) as { order: { id: string; arrival_window: Window } };
        assert.deepEqual(created.arrival_window, latest);
        const moved = await cli(["orders", "reschedule", created.id, "--window", `${other.start}/${other.end}`]);
        assert.equal(moved.code, 0, moved.stderr);
        assert.deepEqual((JSON.parse(moved.stdout) as { arrival_window: Window }).arrival_window, other);
      });
    });
  }
});
