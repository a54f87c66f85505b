// One server's metrics registry (two servers in one process never mix); a gauge whose query fails counts a
// collection failure, so a database outage never costs the process metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "../../db/knex.js";
import { backlogCap, readAuditBacklog, readOutboxBacklog } from "./backlog.js";
import { readPoolUse } from "./pool.js";

export interface MetricsDeps {
  db: Db;
  eventStreams: { stats(): { streams: number } };
  contractorStreams: { stats(): { streams: number } };
  orderFailures: { counts(): readonly { step: string; cause: string; count: number }[] };
}

/** The labels of one answered request: `route` is the route's path template, never the requested URL. */
export interface RequestLabels {
  method: string;
  route: string;
  status_code: string;
}

/** Concurrent callers share one call in flight: the gauges fed by one query run it once per scrape. */
function singleFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () =>
    (inFlight ??= read().finally(() => {
      inFlight = null;
    }));
}

/** A gauge set from `read` at scrape time; on failure it has no sample and `failures` counts the collector. */
function scrapedGauge<T>(
  registry: Registry,
  failures: Counter<"collector">,
  spec: { name: string; help: string; collector: string },
  read: () => Promise<T>,
  value: (data: T) => number | null,
): Gauge {
  return new Gauge({
    name: spec.name,
    help: spec.help,
    registers: [registry],
    async collect() {
      try {
        const v = value(await read());
        if (v === null) this.reset();
        else this.set(v);
      } catch {
        this.reset();
        failures.inc({ collector: spec.collector });
      }
    },
  });
}

function registerBacklogGauges(registry: Registry, failures: Counter<"collector">, db: Db): void {
  const outbox = singleFlight(() => readOutboxBacklog(db));
  const audit = singleFlight(() => readAuditBacklog(db));
  const gauge = <T>(
    name: string,
    help: string,
    collector: string,
    read: () => Promise<T>,
    value: (d: T) => number | null,
  ) => scrapedGauge(registry, failures, { name, help, collector }, read, value);
  gauge(
    "dispatch_webhook_outbox_pending",
    `Undelivered webhook messages (at most ${backlogCap}).`,
    "outbox",
    outbox,
    (d) => d.pending,
  );
  gauge(
    "dispatch_webhook_outbox_oldest_pending_age_seconds",
    "Age of the oldest undelivered webhook message: the delivery lag (0 when none waits).",
    "outbox",
    outbox,
    (d) => d.oldestAgeSeconds,
  );
  gauge(
    "dispatch_audit_pending_records",
    `Audit records waiting for the sequencer (at most ${backlogCap}).`,
    "audit",
    audit,
    (d) => d.pending,
  );
  gauge(
    "dispatch_audit_checkpoint_age_seconds",
    "Age of the newest signed audit checkpoint.",
    "audit",
    audit,
    (d) => d.checkpointAgeSeconds,
  );
}

function registerProcessGauges(registry: Registry, deps: MetricsDeps): void {
  new Gauge({
    name: "dispatch_event_streams_open",
    help: "Open SSE event streams on this instance.",
    registers: [registry],
    collect() {
      this.set(deps.eventStreams.stats().streams);
    },
  });
  new Gauge({
    name: "dispatch_contractor_event_streams_open",
    help: "Open SSE streams of the contractor feed on this instance.",
    registers: [registry],
    collect() {
      this.set(deps.contractorStreams.stats().streams);
    },
  });
  new Gauge({
    name: "dispatch_db_pool_connections",
    help: "Database pool connections by state (used, free) and acquisitions waiting for one (pending).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const use = readPoolUse(deps.db);
      if (use) for (const state of ["used", "free", "pending"] as const) this.set({ state }, use[state]);
    },
  });
  new Gauge({
    name: "dispatch_db_pool_max_connections",
    help: "Connections the database pool may open (1 on PGlite).",
    registers: [registry],
    collect() {
      const use = readPoolUse(deps.db);
      if (use) this.set(use.max);
      else this.reset();
    },
  });
}

function registerOrderFailures(registry: Registry, deps: MetricsDeps): void {
  new Counter({
    name: "dispatch_order_step_failures_total",
    help: "Orders a background pass (dispatcher sweep, sandbox walker) could not move and skipped, by step and cause (SQLSTATE or error code).",
    labelNames: ["step", "cause"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { step, cause, count } of deps.orderFailures.counts()) this.inc({ step, cause }, count);
    },
  });
}

/** Process metrics belong to the process: collected once however many servers it runs (tests run many). */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  const requests = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to its response, by method, route template and status code.",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const failures = new Counter({
    name: "dispatch_metrics_collect_failures_total",
    help: "Scrapes in which a collector's query failed (its gauges had no sample).",
    labelNames: ["collector"] as const,
    registers: [registry],
  });
  registerBacklogGauges(registry, failures, deps.db);
  registerProcessGauges(registry, deps);
  registerOrderFailures(registry, deps);
  const exposed = Registry.merge([processMetrics(), registry]);
  return {
    observeRequest(labels: RequestLabels, seconds: number): void {
      requests.observe(labels, seconds);
    },
    async exposition(): Promise<{ contentType: string; text: string }> {
      return { contentType: exposed.contentType, text: await exposed.metrics() };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
