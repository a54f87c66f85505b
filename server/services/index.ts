// Builds every service once per server over one database handle.
import type { Config } from "../config.js";
import type { Db } from "../db/knex.js";
import { createContractorService } from "./contractors.js";
import { createEvalsService } from "./evals.js";
import { createKeyService } from "./keys.js";
import { createOAuthService } from "./oauth.js";
import { createOrderLifecycleService } from "./order-lifecycle.js";
import { createOrderService } from "./orders.js";
import { createProbeService } from "./probe.js";
import { createQuoteService } from "./quotes.js";
import { createWebhookService } from "./webhooks.js";

export function createServices(db: Db, config: Config) {
  const contractors = createContractorService(db);
  return {
    db,
    config,
    keys: createKeyService(db),
    contractors,
    quotes: createQuoteService(db, contractors, config),
    evals: createEvalsService(db),
    oauth: createOAuthService(db, config.oauthTokenTtlSeconds),
    orders: createOrderService(db, contractors, config),
    orderLifecycle: createOrderLifecycleService(db, contractors),
    webhooks: createWebhookService(db, config),
    probe: createProbeService({ allowPrivate: config.probeAllowPrivate }),
  };
}

export type Services = ReturnType<typeof createServices>;
