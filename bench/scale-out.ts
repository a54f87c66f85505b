// Server processes on one Postgres: quote throughput of one, then of two (combined), then every seal from both checked in one tree
// (each record's leaf hash recomputed, all leaves folded into the root the signed checkpoint carries).
import type { ChildProcess } from "node:child_process";
import { cpus } from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { openCheckpoint, parseVerifierKey } from "../sdk/attest.js";
import { leafHashOfRow } from "../server/services/audit/entries.js";
import { appendLeaves, treeHashFrom } from "../server/services/audit/tlog.js";
import { quoteRequest } from "../test/fixtures/requests.js";
import { startReadyServer } from "../test/helpers/server-process.js";
import { adminToken, postgresDatabase } from "../test/helpers/server.js";

/** Every record is a leaf whose hash is its own, and the leaves fold into the signed root. */
async function checkOneTree(databaseUrl: string, note: string, key: string): Promise<{ seals: number; ok: boolean }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let i = 0; i < 100; i++) {
      const left = await client.query("select count(*)::int as n from audit_pending");
      if (left.rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { rows } = await client.query(
      "select r.*, l.leaf_index from audit_records r join audit_leaves l using (position) order by l.leaf_index",
    );
    const total = await client.query("select count(*)::int as n from audit_records");
    const leaves = rows.map((r) => leafHashOfRow(r));
    const sealsMatch = rows.every(
      (r, i) => r.pre_tree_previous_hash !== null || r.seal === `seal_${leaves[i].toString("hex")}`,
    );
    const checkpoint = openCheckpoint(note, parseVerifierKey(key));
    const root = treeHashFrom(appendLeaves([], 0, leaves).frontier.map((n) => n.hash));
    const ok = sealsMatch && rows.length === total.rows[0].n && checkpoint.treeSize === rows.length;
    return { seals: rows.length, ok: ok && root.equals(checkpoint.rootHash) };
  } finally {
    await client.end();
  }
}

async function issueKey(url: string): Promise<string> {
  const issued = await fetch(`${url}/api/admin/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ account: "bench", environment: "test" }),
  });
  return ((await issued.json()) as { key: string }).key;
}

export async function measureScaleOut(seconds: number, connections: number): Promise<string | null> {
  const pgDb = postgresDatabase();
  if (!pgDb) return null;
  const database = await pgDb.create();
  const env = { DATABASE_URL: database.url, DISPATCH_ADMIN_TOKEN: adminToken, RATE_LIMIT_POINTS: "1000000000" };
  const procs: ChildProcess[] = [];
  try {
    const a = await startReadyServer(env);
    procs.push(a.child);
    const key = await issueKey(a.url);
    const load = (url: string, duration = seconds, share = 2) =>
      autocannon({
        url: `${url}/api/dispatch/v1/quote`,
        method: "POST",
        connections: Math.max(1, Math.floor(connections / share)),
        duration,
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(quoteRequest),
      });
    // The same harness with one process first, so the two-process figure has its like-for-like reference.
    await load(a.url, 1, 1);
    const alone = await load(a.url, seconds, 1);
    const b = await startReadyServer(env);
    procs.push(b.child);
    await Promise.all([load(a.url, 1), load(b.url, 1)]); // warm-up, as for every cell of the main table
    const [ra, rb] = await Promise.all([load(a.url), load(b.url)]);
    await new Promise((r) => setTimeout(r, 1500)); // one sequencer batch interval and a margin
    const note = await (await fetch(`${b.url}/api/attest/checkpoint`)).text();
    const verifier = await (await fetch(`${a.url}/api/attest/key`)).text();
    const tree = await checkOneTree(database.url, note, verifier);
    const combined = ra.requests.average + rb.requests.average;
    return (
      `Server processes on one Postgres 15 (quote; ${cpus().length} cores shared by the load generator, the servers and Postgres): ` +
      `one process ${alone.requests.average.toFixed(0)} req/s (p99 ${alone.latency.p99} ms, ${connections} connections); ` +
      `two processes (${connections} connections split evenly) ` +
      `${combined.toFixed(0)} req/s combined (${ra.requests.average.toFixed(0)} + ${rb.requests.average.toFixed(0)}), ` +
      `p99 ${ra.latency.p99} / ${rb.latency.p99} ms, non-2xx ${ra.non2xx + rb.non2xx}; ` +
      `${tree.seals} records from both in one tree: ${tree.ok ? "every seal verified against the signed checkpoint" : "VERIFICATION FAILED"}.`
    );
  } finally {
    for (const child of procs) child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
    await database.drop();
  }
}
