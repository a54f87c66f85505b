// Fault: another session holds a lock on `orders` (a migration, a long report, a stuck transaction) on real
// Postgres. Documented behaviour: statements give up after DATABASE_STATEMENT_TIMEOUT_MS (default 5 s, used here)
// and so does the wait for a pooled connection, so blocked requests are answered 503 with Retry-After instead of
// piling up; past MAX_REQUESTS_IN_FLIGHT new API requests get 503 `overloaded` at once; /readyz answers within its
// budget (503 naming the database while every connection is stuck); /healthz stays answerable throughout.
import assert from "node:assert/strict";
import pg from "pg";
import { postgresDatabase, startTestServer, type TestServer } from "../helpers/server.js";

const database = postgresDatabase();
const maxInFlight = 20;

interface Answer {
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
}

(database ? describe : describe.skip)("fault: a lock held on orders (Postgres)", function () {
  this.timeout(120_000);
  let t: TestServer;
  let key: string;
  before(async () => {
    t = await startTestServer(database ?? undefined, { MAX_REQUESTS_IN_FLIGHT: String(maxInFlight) });
    key = (await t.issueKey({ account: "lock-faults", scopes: ["orders:read"] })).key;
  });
  after(() => t?.stop());

  const timed = async (path: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const started = performance.now();
    const response = await fetch(`${t.url}${path}`, { headers, signal: AbortSignal.timeout(20_000) });
    const body = (await response.json()) as { code?: string };
    return {
      status: response.status,
      ms: performance.now() - started,
      code: body.code,
      retryAfter: response.headers.get("retry-after"),
    };
  };
  const listOrders = () => timed("/api/dispatch/v1/orders", { "x-api-key": key });

  it("answers blocked requests 503 within the statement timeout, sheds the excess and keeps /readyz quick", async () => {
    assert.equal((await listOrders()).status, 200);
    const holder = new pg.Client({ connectionString: t.databaseUrl });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE");
      const blocked = Array.from({ length: maxInFlight }, listOrders);
      await new Promise((r) => setTimeout(r, 300)); // the first wave is in flight
      const shed = await Promise.all(Array.from({ length: 10 }, listOrders));
      const ready = await timed("/readyz");
      const live = await timed("/healthz");
      const answers = await Promise.all(blocked);

      for (const answer of shed) {
        assert.equal(answer.status, 503);
        assert.equal(answer.code, "overloaded");
        assert.equal(answer.retryAfter, "1");
        assert.ok(answer.ms < 1000, `shed in ${answer.ms} ms`);
      }
      assert.equal(ready.status, 503);
      assert.equal(ready.code, "not_ready");
      assert.ok(ready.ms < 1000, `readyz took ${ready.ms} ms`);
      assert.equal(live.status, 200);
      for (const answer of answers) {
        assert.equal(answer.status, 503, JSON.stringify(answer));
        assert.ok(["database_timeout", "database_unavailable"].includes(answer.code ?? ""), answer.code);
        assert.ok(Number(answer.retryAfter) >= 1);
        // One statement timeout, or a pool wait then one statement timeout: never the lock's whole life.
        assert.ok(answer.ms < 12_000, `answered in ${answer.ms} ms`);
      }
      assert.ok(answers.some((answer) => answer.code === "database_timeout"));
    } finally {
      await holder.query("ROLLBACK").catch(() => undefined);
      await holder.end();
    }
    assert.equal((await listOrders()).status, 200);
    assert.equal((await timed("/readyz")).status, 200);
  });
});
