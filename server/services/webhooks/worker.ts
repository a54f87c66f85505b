// Webhook delivery worker over the transactional outbox: a bounded pool, fair per tenant, with one delivery in
// flight and a circuit breaker per lane (one tenant's endpoint). Why: docs/decisions.md, webhook lanes.
import type { Tenant } from "../access/principal.js";
import type { Knex } from "knex";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config.js";
import { createOutboundClient } from "../net/http.js";
import { callbackPolicy } from "../net/callback-guard.js";
import { webhookUserAgent } from "../../generated/events.js";
import { claimDue, eventOfMessage, laneOf, markDelivered, markFailed, type Lane, type OutboxRow } from "./outbox.js";
import { createBreaker, type Breaker } from "./breaker.js";
import { ensureWebhookSecret, rotateWebhookSecret, signingSecrets } from "./secrets.js";
import { listDeliveries, redeliver, type DeliveryFilter } from "./deliveries.js";
import { startBackgroundJob, type BackgroundJob } from "../../background-job.js";

export interface WebhookSettings {
  pollMs: number;
  backoffMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

const concurrency = 16;
const perTenant = 4;

/** One string per lane (the breaker's and the in-flight map's key); JSON keeps the parts apart. */
const laneKey = (lane: Lane): string => JSON.stringify([lane.account, lane.environment, lane.endpoint]);
const tenantKey = (t: Tenant): string => JSON.stringify([t.account, t.environment]);

interface Worker {
  db: Knex;
  settings: Config["webhook"];
  publicBaseUrl: string | null;
  /** Live-key deliveries' client, and test-key deliveries' (loopback too in sandbox mode). */
  client: ReturnType<typeof createOutboundClient>;
  testClient: ReturnType<typeof createOutboundClient>;
  breaker: Breaker;
  inFlight: Map<number, { lane: Lane; done: Promise<void> }>;
  job: BackgroundJob | null;
  claiming: boolean;
  stopped: boolean;
  /** Where a failed poll is reported (the server logs it, throttled); a failed delivery is kept on its outbox row. */
  onError: (error: unknown) => void;
}

/** A receiver's answer other than 2xx; its status is kept on the outbox row. */
class ReceiverRefused extends Error {
  constructor(readonly status: number) {
    super(`receiver answered ${status}`);
  }
}

/** Sends one attempt; resolves with the receiver's 2xx status. */
async function send(w: Worker, row: OutboxRow): Promise<number> {
  const secrets = await signingSecrets(w.db, { account: row.account, environment: row.environment });
  if (!secrets.length) throw new Error(`no ${row.environment} webhook secret for account ${row.account}`);
  const event = await eventOfMessage(w.db, row, w.publicBaseUrl);
  // The webhook-id is the event's feed id, so a receiver deduplicates retries, redeliveries and forwards.
  const id = event.id;
  const body = JSON.stringify(event); // the feed's event, byte for byte
  const now = new Date(); // one instant for both the signature and its header
  const headers = {
    "content-type": "application/json",
    "user-agent": webhookUserAgent,
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    // One signature per signing secret (a rotated secret signs beside the new one), space-separated.
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, now, body)).join(" "),
  };
  const client = row.environment === "test" ? w.testClient : w.client;
  const response = await client.request(new URL(row.url), {
    method: "POST",
    headers,
    body,
    timeoutMs: w.settings.timeoutMs,
    maxBytes: 65_536,
  });
  if (response.status < 200 || response.status >= 300) throw new ReceiverRefused(response.status);
  return response.status;
}

/** Nothing to do: a failed mark is left to the lease (the row is claimed again once it expires). */
const leaveToLease = (): void => undefined;

async function deliver(w: Worker, row: OutboxRow): Promise<void> {
  try {
    const status = await send(w, row);
    w.breaker.record(laneKey(laneOf(row)), true);
    await markDelivered(w.db, row.id, status);
  } catch (error) {
    w.breaker.record(laneKey(laneOf(row)), false);
    const status = error instanceof ReceiverRefused ? error.status : null; // null: no answer at all
    await markFailed(
      w.db,
      row,
      { message: error instanceof Error ? error.message : String(error), status },
      w.settings,
    ).catch(leaveToLease);
  }
}

function busy(w: Worker): { lanes: Lane[]; tenants: Tenant[] } {
  const lanes = new Map<string, Lane>();
  const perTenantCount = new Map<string, { tenant: Tenant; n: number }>();
  for (const { lane } of w.inFlight.values()) {
    lanes.set(laneKey(lane), lane);
    const key = tenantKey(lane);
    const count = perTenantCount.get(key) ?? { tenant: { account: lane.account, environment: lane.environment }, n: 0 };
    perTenantCount.set(key, { ...count, n: count.n + 1 });
  }
  for (const key of w.breaker.open(Date.now())) {
    const [account, environment, endpoint] = JSON.parse(key) as [string, Lane["environment"], string];
    lanes.set(key, { account, environment, endpoint });
  }
  return {
    lanes: [...lanes.values()],
    tenants: [...perTenantCount.values()].filter(({ n }) => n >= perTenant).map(({ tenant }) => tenant),
  };
}

/** Fills free slots with due rows of lanes that are neither busy nor tripped. */
async function pump(w: Worker): Promise<void> {
  if (w.stopped || w.claiming || w.inFlight.size >= concurrency) return;
  w.claiming = true;
  let claimed = 0;
  try {
    const rows = await claimDue(w.db, concurrency - w.inFlight.size, w.settings.timeoutMs + 5_000, busy(w));
    claimed = rows.length;
    for (const row of rows) {
      const done = deliver(w, row).finally(() => {
        w.inFlight.delete(row.id);
        void pump(w);
      });
      w.inFlight.set(row.id, { lane: laneOf(row), done });
    }
  } catch (error) {
    w.onError(error); // the rows stay in the outbox and the next poll retries
  } finally {
    w.claiming = false;
  }
  if (claimed) void pump(w);
}

type WebhookConfig = Pick<Config, "webhookAllowPrivate" | "sandbox" | "webhook" | "publicBaseUrl">;

export function createWebhookService(db: Knex, config: WebhookConfig) {
  const w: Worker = {
    db,
    settings: config.webhook,
    publicBaseUrl: config.publicBaseUrl,
    client: createOutboundClient(callbackPolicy(config, "live")),
    testClient: createOutboundClient(callbackPolicy(config, "test")),
    breaker: createBreaker(config.webhook.backoffMs),
    inFlight: new Map(),
    job: null,
    claiming: false,
    stopped: true,
    onError: leaveToLease,
  };
  return {
    /** The tenant's signing secret, created on first use (also created by its first order with a callback_url). */
    secretFor: (tenant: Tenant) => ensureWebhookSecret(db, tenant),
    rotateSecret: (tenant: Tenant) => rotateWebhookSecret(db, tenant),
    deliveries: (tenant: Tenant, filter: DeliveryFilter) => listDeliveries(db, tenant, filter),
    /** Queues a delivery again and wakes the worker (when it runs) so the attempt starts now. */
    async redeliver(tenant: Tenant, id: string) {
      const delivery = await redeliver(db, tenant, id);
      void pump(w);
      return delivery;
    },
    start(onError: (error: unknown) => void = leaveToLease): void {
      if (!w.stopped) return;
      w.onError = onError;
      w.stopped = false;
      // The first poll comes one interval after start, so a backlog left by a restart does not hold up start-up.
      w.job = startBackgroundJob(() => pump(w).then(() => 0), { intervalMs: w.settings.pollMs }, onError);
    },
    /** Stops polling and waits for the deliveries in flight to be recorded. */
    async stop(): Promise<void> {
      w.stopped = true;
      await w.job?.stop();
      w.job = null;
      while (w.claiming || w.inFlight.size)
        await Promise.race([...[...w.inFlight.values()].map((d) => d.done), new Promise((r) => setTimeout(r, 10))]);
      w.client.destroy();
      w.testClient.destroy();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
