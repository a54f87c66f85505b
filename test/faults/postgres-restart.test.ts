// Fault: PostgreSQL stops and comes back during a write load. Meanwhile answers are 503 problems (never 500),
// the server recovers without a restart, and every write it acknowledged is in the database. The built server runs it.
import assert from "node:assert/strict";
import pg from "pg";
import { startPrivatePostgres, type PrivatePostgres } from "../helpers/private-services.js";
import { startBuiltServer, type BuiltServer } from "../helpers/server-process.js";
import { sleep } from "../helpers/wait.js";

const loadPath = process.env.FAULT_LOAD ?? "/api/dispatch/v1/order";

describe("fault: Postgres restart under load", function () {
  this.timeout(120_000);
  let db: PrivatePostgres;
  let t: BuiltServer;

  before(async () => {
    db = await startPrivatePostgres();
    t = await startBuiltServer(null, {
      DATABASE_URL: db.url,
      RATE_LIMIT_POINTS: "100000",
      LOG_LEVEL: process.env.FAULT_LOG ?? "silent",
    });
  });
  after(async () => {
    await t?.stop().catch(() => {});
    db?.destroy();
  });

  it("answers 503 while the database is down, recovers, and loses no acknowledged write", async () => {
    const { key } = await t.issueKey({ account: "faults" });
    const acknowledged: string[] = [];
    const statuses: Record<number, number> = {};
    const codes = new Set<string>();
    let running = true;
    let n = 0;
    const worker = async () => {
      while (running) {
        const body = {
          trade: "plumbing",
          location: { state: n % 3 ? "TX" : "AK" },
          description: `fault load ${n}`,
          reference_id: `fault-${n++}`,
        };
        const response = await fetch(t.url + loadPath, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(body),
        }).catch(() => null);
        if (!response) continue;
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        const answer = await response.json();
        if (response.status === 201 || response.status === 202) acknowledged.push(answer.order.id);
        else codes.add(answer.code);
        if (response.status >= 500) await sleep(50);
      }
    };
    const workers = [worker(), worker(), worker()];
    await sleep(1500);
    db.stop();
    await sleep(3000);
    db.start();
    await sleep(4000);
    running = false;
    await Promise.all(workers);

    console.log(`      statuses during the run: ${JSON.stringify(statuses)}; error codes: ${[...codes].join(", ")}`);
    assert.equal(statuses[500] ?? 0, 0, "no 500 answers");
    assert.ok((statuses[503] ?? 0) > 0, "some requests saw the outage as 503");
    assert.deepEqual(
      [...codes].filter((c) => c !== "database_unavailable"),
      [],
    );
    const after = await fetch(`${t.url}/readyz`);
    assert.equal(after.status, 200, "recovered without a restart");
    const client = new pg.Client(db.url);
    await client.connect();
    const { rows } = await client.query("select id from orders where id = any($1)", [acknowledged]);
    await client.end();
    assert.equal(rows.length, acknowledged.length, "every acknowledged order is stored");
    assert.ok(acknowledged.length > 10);
  });
});
