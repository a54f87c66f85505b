// Request timings into the metrics service, labelled by route template (never the raw URL, so the label set stays
// bounded) and status; and, when METRICS_PORT is set, a second listener serving GET /metrics without auth for a
// scraper on a private interface. The main port serves them as the admin route /api/admin/v1/metrics.
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { Plugin, Request } from "@hapi/hapi";
import type { Config } from "../config.js";
import type { Metrics } from "../services/metrics/registry.js";

interface Options {
  metrics: Metrics;
  listener: Config["metricsListener"];
}

/** 499 (nginx's "client closed request") when the client left before any response was sent. */
const statusOf = (request: Request) => (request.raw.res.headersSent ? request.raw.res.statusCode : 499);

function observe(metrics: Metrics, request: Request): void {
  const end = request.info.responded || Date.now();
  metrics.observeRequest(
    { method: request.method.toUpperCase(), route: request.route.path, status_code: String(statusOf(request)) },
    Math.max(0, end - request.info.received) / 1000,
  );
}

function serveScrapes(metrics: Metrics) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("This port serves GET /metrics only.\n");
      return;
    }
    metrics.exposition().then(
      ({ contentType, text }) =>
        res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(text),
      () => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("metrics collection failed\n"),
    );
  };
}

async function listen(server: HttpServer, at: { host: string; port: number }): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: Error) => {
      reject(new Error(`METRICS_PORT: cannot listen on ${at.host}:${at.port}: ${error.message}`, { cause: error }));
    });
    server.listen(at.port, at.host, resolve);
  });
}

export const metricsPlugin: Plugin<Options> = {
  name: "dispatch-metrics",
  register(server, { metrics, listener }) {
    server.events.on("response", (request) => {
      observe(metrics, request);
    });
    if (!listener) return;
    const scrapes = createServer({ requestTimeout: 10_000, keepAliveTimeout: 5000 }, serveScrapes(metrics));
    server.ext("onPreStart", async () => {
      await listen(scrapes, listener);
      const address = scrapes.address();
      const port = typeof address === "object" && address ? address.port : address;
      server.logger.info({ metrics: `http://${listener.host}:${port}/metrics` }, "metrics listener up");
    });
    // Closed last, so the drain itself can still be watched.
    server.ext("onPostStop", async () => {
      scrapes.closeAllConnections();
      await new Promise((resolve) => scrapes.close(resolve));
    });
  },
};
