// Graceful stop that loses no request: once the listener closes, every request whose bytes reached the server is
// answered (with `Connection: close`), and a kept-alive connection is closed only between requests. Node's close()
// of idle connections and Hapi's clean stop are both off, since each can end a connection whose request is unread;
// SHUTDOWN_GRACE_MS cuts what is left (docs/decisions.md, "A drain that loses no request").
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Server } from "@hapi/hapi";

/** Hapi options the drain relies on: its own clean stop would end connections whose request is not read yet. */
export const drainServerOptions = { operations: { cleanStop: false } } as const;

/**
 * Closing the listening socket resets every connection the kernel has queued and Node not accepted yet; a loop
 * kept busy by a burst accepts late (hundreds can wait for seconds). So the listener closes only after turns of
 * the loop (each poll phase accepts what is queued) that brought no new connection. Counted in turns, not time:
 * a loop that was busy has not accepted anything yet, however long it took. At most `maxTurns` under steady
 * arrivals.
 */
function acceptQueued(acceptedSoFar: () => number, maxTurns = 1_000): Promise<void> {
  return new Promise((resolve) => {
    let seen = acceptedSoFar();
    let quietTurns = 0;
    const turn = (n: number) =>
      setImmediate(() => {
        quietTurns = acceptedSoFar() === seen ? quietTurns + 1 : 0;
        seen = acceptedSoFar();
        // Three: the first immediate may run before any poll phase, so two polls in a row found nothing new.
        if (quietTurns >= 3 || n >= maxTurns) resolve();
        else turn(n + 1);
      });
    turn(1);
  });
}

/**
 * Closes the connections that never sent a request one keep-alive timeout into the drain (checked after a poll
 * phase, so bytes that reached a busy server have been read by then), and every connection after `graceMs`.
 */
function closeLeftovers(listener: Server["listener"], requestsSeen: Map<Socket, number>, graceMs: number): void {
  const closeSilent = setTimeout(() => {
    setImmediate(() => {
      for (const [socket, seen] of requestsSeen) if (seen === 0 && socket.bytesRead === 0) socket.destroy();
    });
  }, listener.keepAliveTimeout);
  const cut = setTimeout(() => {
    listener.closeAllConnections();
  }, graceMs);
  listener.once("close", () => {
    clearTimeout(closeSilent);
    clearTimeout(cut);
  });
}

/** Drains the listener of `server` (made with drainServerOptions) on stop, cutting what is left after `graceMs`. */
export function closeConnectionsOnStop(server: Server, graceMs: number): void {
  const listener = server.listener;
  const underWay = new Set<ServerResponse>();
  const requestsSeen = new Map<Socket, number>();
  let draining = false;
  const endConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.shouldKeepAlive = false; // `Connection: close`: the client opens a new one
  };
  // Only Node's close() calls this; what it would close is left to the rules above.
  listener.closeIdleConnections = () => undefined;
  let accepted = 0;
  listener.on("connection", (socket: Socket) => {
    accepted++;
    requestsSeen.set(socket, 0);
    socket.once("close", () => requestsSeen.delete(socket));
  });
  const onRequest = (req: { socket: Socket }, res: ServerResponse) => {
    requestsSeen.set(req.socket, (requestsSeen.get(req.socket) ?? 0) + 1);
    if (draining) endConnection(res);
    underWay.add(res);
    res.once("close", () => underWay.delete(res));
  };
  listener.on("request", onRequest);
  listener.on("checkContinue", onRequest); // `Expect: 100-continue` requests come as this event instead
  server.ext("onPreStop", () => acceptQueued(() => accepted));
  server.events.on("closing", () => {
    draining = true;
    for (const res of underWay) endConnection(res);
    closeLeftovers(listener, requestsSeen, graceMs);
    server.logger.info(
      { requests: underWay.size, connections: requestsSeen.size },
      "listener closed: new connections are refused",
    );
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
