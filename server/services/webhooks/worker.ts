// Webhook delivery worker over the transactional outbox: a bounded pool of deliveries (no batch barrier), at
// most one in flight per endpoint, and a per-endpoint circuit breaker, so a dead receiver only slows itself.
// The outbox (not pg-boss/graphile-worker) stays: rows are written in the order's own transaction, already
// shared by every instance through SKIP LOCKED-style leases, and a queue library would add a second store.
import type { Knex } from "knex";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config.js";
import { createOutboundClient } from "../net/http.js";
import { claimDue, ensureWebhookSecret, markDelivered, markFailed, secretOf, type OutboxRow } from "./outbox.js";

export interface WebhookSettings {
  pollMs: number;
  backoffMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

/** Deliveries in flight per process. */
const concurrency = 16;
/** Consecutive failures after which an endpoint's circuit opens (it is skipped until the cool-down ends). */
const tripAfter = 3;

function createBreaker(backoffMs: number) {
  const failures = new Map<string, { count: number; openUntil: number }>();
  return {
    open: (now: number) => [...failures].filter(([, f]) => f.openUntil > now).map(([url]) => url),
    record(url: string, ok: boolean): void {
      if (ok) return void failures.delete(url);
      const count = (failures.get(url)?.count ?? 0) + 1;
      const openUntil = count >= tripAfter ? Date.now() + Math.min(backoffMs * 2 ** (count - tripAfter), 3_600_000) : 0;
      failures.set(url, { count, openUntil });
    },
  };
}

type OutboundClient = ReturnType<typeof createOutboundClient>;
interface Worker {
  db: Knex;
  settings: WebhookSettings;
  client: OutboundClient;
  breaker: ReturnType<typeof createBreaker>;
  inFlight: Map<number, { url: string; done: Promise<void> }>;
  timer: NodeJS.Timeout | null;
  claiming: boolean;
  stopped: boolean;
}

/** Standard Webhooks headers; one instant for both the signature and its header. */
function signedHeaders(secret: string, messageId: string, body: string): Record<string, string> {
  const now = new Date();
  return {
    "content-type": "application/json",
    "user-agent": "dispatch-webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, now, body),
  };
}

async function send(w: Worker, row: OutboxRow): Promise<void> {
  const secret = await secretOf(w.db, row.account);
  if (!secret) throw new Error(`no webhook secret for account ${row.account}`);
  const body = JSON.stringify(row.payload);
  const response = await w.client.request(new URL(row.url), {
    method: "POST",
    headers: signedHeaders(secret, row.message_id, body),
    body,
    timeoutMs: w.settings.timeoutMs,
    maxBytes: 65_536,
  });
  if (response.status < 200 || response.status >= 300) throw new Error(`receiver answered ${response.status}`);
}

/** A failed mark is left to the lease, which hands the row out again. */
const leaveToLease = (): void => undefined;

async function deliver(w: Worker, row: OutboxRow): Promise<void> {
  try {
    await send(w, row);
    w.breaker.record(row.url, true);
    await markDelivered(w.db, row.id);
  } catch (error) {
    w.breaker.record(row.url, false);
    await markFailed(w.db, row, (error as Error).message, w.settings).catch(leaveToLease);
  }
}

/** Fills free slots with due rows of endpoints that are neither busy nor tripped. */
async function pump(w: Worker): Promise<void> {
  if (w.stopped || w.claiming || w.inFlight.size >= concurrency) return;
  w.claiming = true;
  let claimed = 0;
  try {
    const busy = [...new Set([...[...w.inFlight.values()].map((d) => d.url), ...w.breaker.open(Date.now())])];
    const rows = await claimDue(w.db, concurrency - w.inFlight.size, w.settings.timeoutMs + 5_000, busy);
    claimed = rows.length;
    for (const row of rows) {
      const done = deliver(w, row).finally(() => {
        w.inFlight.delete(row.id);
        void pump(w);
      });
      w.inFlight.set(row.id, { url: row.url, done });
    }
  } catch {
    // The database may be briefly unreachable; the rows stay in the outbox and the next poll retries.
  } finally {
    w.claiming = false;
  }
  if (claimed) void pump(w);
}

function schedule(w: Worker): void {
  if (w.stopped) return;
  w.timer = setTimeout(
    () =>
      void pump(w).finally(() => {
        schedule(w);
      }),
    w.settings.pollMs,
  );
}

export function createWebhookService(db: Knex, config: Pick<Config, "webhookAllowPrivate" | "webhook">) {
  const settings = config.webhook;
  const w: Worker = {
    db,
    settings,
    client: createOutboundClient({ allowLoopback: false, allowPrivate: config.webhookAllowPrivate }),
    breaker: createBreaker(settings.backoffMs),
    inFlight: new Map(),
    timer: null,
    claiming: false,
    stopped: true,
  };
  return {
    /** The account's signing secret, created on first use (also created by its first order with a callback_url). */
    secretFor: (account: string) => ensureWebhookSecret(db, account),
    start(): void {
      if (!w.stopped) return;
      w.stopped = false;
      void pump(w);
      schedule(w);
    },
    /** Stops polling and waits for the deliveries in flight to be recorded. */
    async stop(): Promise<void> {
      w.stopped = true;
      if (w.timer) clearTimeout(w.timer);
      while (w.claiming || w.inFlight.size)
        await Promise.race([...[...w.inFlight.values()].map((d) => d.done), new Promise((r) => setTimeout(r, 10))]);
      w.client.destroy();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
