// Graceful stop. Once the listener closes (Hapi's `closing`), every response closes its connection and a
// keep-alive socket is closed as soon as it goes idle, so requests in flight finish while no socket lingers to
// hold the close; Hapi's stop timeout (SHUTDOWN_GRACE_MS) cuts what is left. SIGTERM/SIGINT run that stop once
// and exit 0 when it completes.
import type { ServerResponse } from "node:http";
import type { Server } from "@hapi/hapi";

/** Keeps track of the responses under way so the drain can ask each to close its connection when done. */
export function closeConnectionsOnStop(server: Server): void {
  const listener = server.listener;
  const underWay = new Set<ServerResponse>();
  let draining = false;
  const closeWhenIdle = () =>
    setImmediate(() => {
      listener.closeIdleConnections();
    });
  const endConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.shouldKeepAlive = false; // `Connection: close`: the client opens a new one
  };
  listener.on("request", (_req, res: ServerResponse) => {
    if (draining) endConnection(res);
    underWay.add(res);
    res.once("close", () => {
      underWay.delete(res);
      if (draining) closeWhenIdle(); // a response sent before the drain leaves its socket kept alive
    });
  });
  server.events.on("closing", () => {
    draining = true;
    for (const res of underWay) endConnection(res);
    listener.closeIdleConnections();
    server.logger.info({ requests: underWay.size }, "listener closed: new connections are refused");
  });
}

interface Stoppable {
  stop(): Promise<void>;
  server: Pick<Server, "logger">;
  config: { shutdownGraceMs: number };
}

/** The first SIGTERM or SIGINT stops the app (a second one, e.g. npm's forwarded Ctrl-C, changes nothing). */
export function stopOnSignals(app: Stoppable): void {
  let stopping = false;
  const { logger } = app.server;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ graceMs: app.config.shutdownGraceMs }, `${signal}: draining`);
    // Past the grace period connections are cut; this bounds the steps after it (background jobs, database).
    setTimeout(() => {
      logger.error("stop did not complete in time; exiting");
      process.exit(1);
    }, app.config.shutdownGraceMs + 30_000).unref();
    app.stop().then(
      () => {
        logger.info("dispatch stopped");
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, "stop failed");
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
}
