// Fault: the built server on its embedded PGlite directory is killed with SIGKILL while orders come in, and is
// started again at once on the same directory, as a supervisor restarts a crashed service (before the data
// directory's lock could go stale). It comes up, and every order it acknowledged and every event it had listed is
// there, each event byte for byte.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { orderRequest } from "../fixtures/requests.js";
import { startBuiltServer, type BuiltServer } from "../helpers/server-process.js";
import { sleep } from "../helpers/wait.js";
import { now } from "../../server/services/shared/clock.js";

/** Every event of the key's account written before the read began, oldest first, as the feed serves them (one JSON
 * text each): while orders keep coming, the feed grows as it is read, so the read stops at the first later event. */
async function allEvents(url: string, key: string): Promise<Map<string, string>> {
  const events = new Map<string, string>();
  const began = now();
  let after = "";
  for (let page = 0; page < 100; page++) {
    const response = await fetch(`${url}/api/dispatch/v1/events?limit=100${after ? `&after=${after}` : ""}`, {
      headers: { "x-api-key": key },
    });
    assert.equal(response.status, 200, await response.clone().text());
    const body = (await response.json()) as { items: { id: string; timestamp: string }[]; next_after: string | null };
    for (const item of body.items) {
      if (Date.parse(item.timestamp) > began) return events;
      events.set(item.id, JSON.stringify(item));
    }
    if (!body.items.length || !body.next_after) return events;
    after = body.next_after;
  }
  throw new Error("more than 100 pages of events written before the read began");
}

describe("fault: SIGKILL and an immediate restart on the embedded database", function () {
  this.timeout(240_000);
  let dir: string;
  let first: BuiltServer | undefined;
  let second: BuiltServer | undefined;
  before(() => (dir = mkdtempSync(join(tmpdir(), "dispatch-crash-"))));
  after(async () => {
    first?.child.kill("SIGKILL");
    await second?.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it("comes up at once on the same directory and has lost no acknowledged order or listed event", async () => {
    // One public origin for both runs: an event's status_url names it, and the restarted server has another port.
    const env = {
      DATABASE_URL: `pglite://${join(dir, "data")}`,
      PUBLIC_BASE_URL: "https://dispatch.example",
      RATE_LIMIT_POINTS: "100000",
      LOG_LEVEL: "silent",
    };
    first = await startBuiltServer(null, env);
    const { key } = await first.issueKey({ account: "crash" });
    const acknowledged: string[] = [];
    let running = true;
    let n = 0;
    const until = Date.now() + 60_000; // bounded whatever happens below
    const worker = async (url: string) => {
      while (running && Date.now() < until) {
        const body = { ...orderRequest, reference_id: `crash-${n++}`, location: { state: n % 3 ? "TX" : "AK" } };
        const response = await fetch(`${url}/api/dispatch/v1/order`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(body),
        }).catch(() => null); // the kill cuts the requests in flight
        if (response?.status === 201 || response?.status === 202)
          acknowledged.push(((await response.json()) as { order: { id: string } }).order.id);
        else if (!response) await sleep(100); // the server is gone: no busy loop against a closed port
      }
    };
    const workers = [worker(first.url), worker(first.url)];
    let listed: Map<string, string>;
    try {
      await sleep(3000);
      listed = await allEvents(first.url, key); // read while orders keep coming
      const exited = new Promise((resolve) => first!.child.once("exit", resolve));
      first.child.kill("SIGKILL");
      await exited;
    } finally {
      running = false;
      await Promise.all(workers);
    }
    assert.ok(acknowledged.length >= 10, `only ${acknowledged.length} orders before the kill`);
    assert.ok(listed.size >= 10, `only ${listed.size} events listed before the kill`);

    const restarting = Date.now();
    second = await startBuiltServer(null, env); // fails if the dead server's lock refuses it
    const restartMs = Date.now() - restarting;
    console.log(
      `      ${acknowledged.length} orders acknowledged and ${listed.size} events listed before the kill; ` +
        `ready again after ${restartMs} ms`,
    );
    const missing: string[] = [];
    for (const id of acknowledged) {
      const response = await fetch(`${second.url}/api/dispatch/v1/orders/${id}`, { headers: { "x-api-key": key } });
      if (response.status !== 200) missing.push(`${id}: ${response.status}`);
    }
    assert.deepEqual(missing, [], "acknowledged orders lost in the crash");
    const after = await allEvents(second.url, key);
    const changed = [...listed].filter(([id, text]) => after.get(id) !== text).map(([id]) => id);
    assert.deepEqual(changed, [], "listed events lost or changed in the crash");
  });
});
