// Builds every service once per server over one database handle.
import { pino, type Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/knex.js";
import { createContractorService } from "./dispatch/contractors.js";
import { createEvalsService } from "./dispatch/evals.js";
import { createHealthService } from "./health/readiness.js";
import { createKeyService } from "./access/keys.js";
import { createOAuthService } from "./access/oauth.js";
import { createOrderLifecycleService } from "./dispatch/order-lifecycle.js";
import { createOrderService } from "./dispatch/orders.js";
import { createProbeService } from "./probe/probe.js";
import { createQuoteService } from "./dispatch/quotes.js";
import { createWebhookService } from "./webhooks/worker.js";

/** `logger` is the root pino logger; each background service gets its own child (its name in `service`). */
export function createServices(db: Db, config: Config, logger: Logger = pino({ level: config.logLevel })) {
  const contractors = createContractorService(db);
  return {
    db,
    config,
    health: createHealthService(db),
    keys: createKeyService(db),
    contractors,
    quotes: createQuoteService(db, contractors, config),
    evals: createEvalsService(db),
    oauth: createOAuthService(db, config.oauthTokenTtlSeconds),
    orders: createOrderService(db, contractors, config),
    orderLifecycle: createOrderLifecycleService(db, contractors),
    webhooks: createWebhookService(db, config, logger.child({ service: "webhooks" })),
    probe: createProbeService({ allowPrivate: config.probeAllowPrivate }),
  };
}

export type Services = ReturnType<typeof createServices>;
