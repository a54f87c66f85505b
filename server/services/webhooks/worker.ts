// Webhook delivery worker over the transactional outbox: a bounded pool of deliveries (no batch barrier), at
// most one in flight per endpoint (scheme + host + port), at most `perAccount` per account, and a per-endpoint
// circuit breaker, so a dead receiver (or a tenant with many) only slows itself.
// The outbox (not pg-boss/graphile-worker) stays: rows are written in the order's own transaction, already
// shared by every instance through SKIP LOCKED-style leases, and a queue library would add a second store.
import type { Knex } from "knex";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config.js";
import { createOutboundClient } from "../net/http.js";
import {
  claimDue,
  endpointOf,
  ensureWebhookSecret,
  markDelivered,
  markFailed,
  secretOf,
  type OutboxRow,
} from "./outbox.js";

export interface WebhookSettings {
  pollMs: number;
  backoffMs: number;
  maxAttempts: number;
  timeoutMs: number;
}

/** Deliveries in flight per process. */
const concurrency = 16;
/** Deliveries in flight per account: one tenant's hung receivers on many hosts leave the other slots free. */
const perAccount = 4;
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

export function createWebhookService(db: Knex, config: Pick<Config, "webhookAllowPrivate" | "webhook">) {
  const settings = config.webhook;
  const client = createOutboundClient({ allowLoopback: false, allowPrivate: config.webhookAllowPrivate });
  const breaker = createBreaker(settings.backoffMs);
  const inFlight = new Map<number, { endpoint: string; account: string; done: Promise<void> }>();
  let timer: NodeJS.Timeout | null = null;
  let claiming = false;
  let stopped = true;

  async function send(row: OutboxRow): Promise<void> {
    const secret = await secretOf(db, row.account);
    if (!secret) throw new Error(`no webhook secret for account ${row.account}`);
    const body = JSON.stringify(row.payload);
    const now = new Date(); // one instant for both the signature and its header
    const headers = {
      "content-type": "application/json",
      "user-agent": "dispatch-webhooks/1",
      "webhook-id": row.message_id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(row.message_id, now, body),
    };
    const response = await client.request(new URL(row.url), {
      method: "POST",
      headers,
      body,
      timeoutMs: settings.timeoutMs,
      maxBytes: 65_536,
    });
    if (response.status < 200 || response.status >= 300) throw new Error(`receiver answered ${response.status}`);
  }

  async function deliver(row: OutboxRow): Promise<void> {
    try {
      await send(row);
      breaker.record(endpointOf(row.url), true);
      await markDelivered(db, row.id);
    } catch (error) {
      breaker.record(endpointOf(row.url), false);
      await markFailed(db, row, (error as Error).message, settings).catch(() => {}); // the lease retries it
    }
  }

  /** Endpoints in flight or circuit-open, and accounts at their in-flight cap. */
  function busy(): { endpoints: string[]; accounts: string[] } {
    const flights = [...inFlight.values()];
    const perAccountCount = new Map<string, number>();
    for (const f of flights) perAccountCount.set(f.account, (perAccountCount.get(f.account) ?? 0) + 1);
    return {
      endpoints: [...new Set([...flights.map((f) => f.endpoint), ...breaker.open(Date.now())])],
      accounts: [...perAccountCount].filter(([, n]) => n >= perAccount).map(([account]) => account),
    };
  }

  /** Fills free slots with due rows of endpoints that are neither busy nor tripped. */
  async function pump(): Promise<void> {
    if (stopped || claiming || inFlight.size >= concurrency) return;
    claiming = true;
    let claimed = 0;
    try {
      const rows = await claimDue(db, concurrency - inFlight.size, settings.timeoutMs + 5_000, busy());
      claimed = rows.length;
      for (const row of rows) {
        const done = deliver(row).finally(() => {
          inFlight.delete(row.id);
          void pump();
        });
        inFlight.set(row.id, { endpoint: endpointOf(row.url), account: row.account, done });
      }
    } catch {
      // The database may be briefly unreachable; the rows stay in the outbox and the next poll retries.
    } finally {
      claiming = false;
    }
    if (claimed) void pump();
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void pump().finally(schedule), settings.pollMs);
  }

  return {
    /** The account's signing secret, created on first use (also created by its first order with a callback_url). */
    secretFor: (account: string) => ensureWebhookSecret(db, account),
    start(): void {
      if (!stopped) return;
      stopped = false;
      void pump();
      schedule();
    },
    /** Stops polling and waits for the deliveries in flight to be recorded. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (claiming || inFlight.size)
        await Promise.race([...[...inFlight.values()].map((d) => d.done), new Promise((r) => setTimeout(r, 10))]);
      client.destroy();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
