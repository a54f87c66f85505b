// The metrics service, with prom-client (and the OpenTelemetry API it loads) imported at the first answered request
// or scrape rather than at start; the few timings observed while it loads are queued and recorded once it is in.
import type { Metrics, MetricsDeps, RequestLabels } from "./registry.js";

/** Timings kept while prom-client loads: far more than arrive in that moment, few enough to hold if it never does. */
const maxQueued = 10_000;

export function createDeferredMetrics(deps: MetricsDeps): Metrics {
  let metrics: Metrics | null = null;
  let loading: Promise<Metrics> | undefined;
  const queued: [RequestLabels, number][] = [];
  const load = () =>
    (loading ??= import("./registry.js").then(({ createMetrics }) => {
      metrics = createMetrics(deps);
      for (const [labels, seconds] of queued.splice(0)) metrics.observeRequest(labels, seconds);
      return metrics;
    }));
  return {
    observeRequest(labels, seconds) {
      if (metrics) {
        metrics.observeRequest(labels, seconds);
        return;
      }
      if (queued.length < maxQueued) queued.push([labels, seconds]); // bounded should the import never succeed
      load().catch(() => undefined); // a failed import surfaces at the next scrape
    },
    async exposition() {
      return (await load()).exposition();
    },
  };
}
