// Webhook delivery worker: polls the outbox, POSTs signed Standard Webhooks, retries with backoff.
// Connections go through request-filtering-agent so a callback host that now resolves to a private
// address is refused at delivery time too (node:http, since fetch ignores http.Agent).
import http from "node:http";
import https from "node:https";
import type { Knex } from "knex";
import type { Logger } from "pino";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../config.js";
import { claimDue, ensureWebhookSecret, markDelivered, markFailed, secretOf, type OutboxRow } from "./outbox.js";

const batchSize = 20;

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  agent: http.Agent,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? https.request : http.request;
    const request = send(
      url,
      {
        method: "POST",
        agent,
        timeout: timeoutMs,
        headers: { "content-type": "application/json", "user-agent": "dispatch-webhooks/1", ...headers },
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          resolve(response.statusCode ?? 0);
        });
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}

/** The Standard Webhooks body and headers of one delivery attempt. */
function signedDelivery(row: OutboxRow, secret: string) {
  const body = JSON.stringify(row.payload);
  const now = new Date(); // one instant for both the signature and its header
  const headers = {
    "webhook-id": row.message_id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(row.message_id, now, body),
  };
  return { body, headers };
}

/** `log` is a pino child: delivery failures (retried) log at warn, a failed outbox poll at error, one line each. */
// eslint-disable-next-line max-lines-per-function -- to split after the harden rewrite of this file lands (issue 12)
export function createWebhookService(db: Knex, config: Pick<Config, "webhookAllowPrivate" | "webhook">, log: Logger) {
  const settings = config.webhook;
  const filter = { allowPrivateIPAddress: config.webhookAllowPrivate, keepAlive: false };
  const agents = { http: new RequestFilteringHttpAgent(filter), https: new RequestFilteringHttpsAgent(filter) };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  async function deliver(row: OutboxRow): Promise<void> {
    try {
      const secret = await secretOf(db, row.account);
      if (!secret) throw new Error(`no webhook secret for account ${row.account}`);
      const url = new URL(row.url);
      const { body, headers } = signedDelivery(row, secret);
      const agent = url.protocol === "https:" ? agents.https : agents.http;
      const status = await post(url, body, headers, agent, settings.timeoutMs);
      if (status < 200 || status >= 300) throw new Error(`receiver answered ${status}`);
      await markDelivered(db, row.id);
    } catch (error) {
      const reason = (error as Error).message;
      log.warn(
        { message_id: row.message_id, order_id: row.order_id, attempts: row.attempts, reason },
        "webhook delivery failed",
      );
      await markFailed(db, row, reason, settings);
    }
  }

  async function tick(): Promise<void> {
    let claimed = 0;
    try {
      const rows = await claimDue(db, batchSize, settings.timeoutMs + 5_000);
      claimed = rows.length;
      await Promise.all(rows.map(deliver)); // at most one row per order, so order is kept
    } catch (error) {
      // The database may be briefly unreachable; the rows stay in the outbox and the next poll retries.
      log.error({ reason: (error as Error).message }, "webhook outbox poll failed");
    }
    schedule(claimed ? 0 : settings.pollMs);
  }

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().finally(() => (running = null));
    }, ms);
  }

  return {
    /** The account's signing secret, created on first use (also created by its first order with a callback_url). */
    secretFor: (account: string) => ensureWebhookSecret(db, account),
    start(): void {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    /** Stops polling and waits for the deliveries in flight to be recorded. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (running) await running;
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
