// Builds every service once per server over one database handle.
import type { Config } from "../config.js";
import { createChangeFeed } from "../db/change-feed.js";
import type { Db } from "../db/knex.js";
import { createAuditLogService } from "./audit/log.js";
import { listAuditRecords, type AuditRecordQuery } from "./audit/records.js";
import { createEventServices } from "./events/service.js";
import { createContractorService } from "./dispatch/contractors.js";
import { createEvalsService } from "./dispatch/evals/index.js";
import { createHealthService } from "./health/readiness.js";
import { createDeferredMetrics } from "./metrics/deferred.js";
import { createKeyService } from "./access/keys.js";
import { createOAuthPurger, createOAuthService } from "./access/oauth.js";
import { createPrincipalResolver, type Tenant } from "./access/principal.js";
import { createDispatchDomain } from "./dispatch-domain.js";
import { createProbeService } from "./probe/probe.js";
import { createQuoteService } from "./dispatch/quotes.js";
import { createWebhookService } from "./webhooks/worker.js";
import { createStatisticsKeeper } from "../db/statistics.js";

/** The database's upkeep: expired OAuth rows purged, table statistics kept where the database keeps none. */
const upkeep = (db: Db, config: Config) => ({
  oauthPurger: createOAuthPurger(db),
  statistics: createStatisticsKeeper(db, config.databaseUrl),
});

export function createServices(db: Db, config: Config) {
  const changes = createChangeFeed(config.databaseUrl);
  const contractors = createContractorService(db, changes);
  const keys = createKeyService(db, changes);
  const oauth = createOAuthService(db, config.oauthTokenTtlSeconds);
  const events = createEventServices(db, config, { keys, changes });
  // an order change may write contractor events too: both sequencers are asked for a pass
  const eventsWritten = () => {
    events.eventSequencer.nudge();
    events.contractorSequencer.nudge();
  };
  const dispatch = createDispatchDomain(db, contractors, config, eventsWritten, changes);
  // A contractor added, raised or re-activated on any instance (or anything, after the feed was cut off).
  changes.on((table) => {
    if (table === "contractors" || table === "*") dispatch.dispatcher.nudge();
  });
  return {
    db,
    config,
    auditLog: createAuditLogService(db, config),
    auditRecords: { list: (tenant: Tenant, query: AuditRecordQuery) => listAuditRecords(db, tenant, query) },
    ...events,
    changes,
    health: createHealthService(db),
    metrics: createDeferredMetrics({
      db,
      eventStreams: events.eventStreams,
      contractorStreams: events.contractorStreams,
      orderFailures: dispatch.workers.failures,
    }),
    keys,
    principals: createPrincipalResolver(keys, oauth),
    contractors,
    quotes: createQuoteService(db, contractors, config, dispatch.seats),
    evals: createEvalsService(db, config.evalsCacheMs),
    oauth,
    ...upkeep(db, config),
    ...dispatch,
    webhooks: createWebhookService(db, config),
    probe: createProbeService({ allowPrivate: config.probeAllowPrivate }),
  };
}

export type Services = ReturnType<typeof createServices>;
