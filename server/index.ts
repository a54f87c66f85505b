// createServer(config) assembles plugins, routes and services; start() runs it from the environment.
import { createServer as createHttpServer } from "node:http";
import Hapi from "@hapi/hapi";
import type { Redis } from "ioredis";
import { loadConfig, type Config } from "./config.js";
import { lockDataDir } from "./db/data-lock.js";
import { closeConnectionsOnStop, drainServerOptions, stopOnSignals } from "./drain.js";
import { createDb, isPostgresUrl, restoresSnapshot, type Db } from "./db/knex.js";
import { migrate } from "./db/migrate.js";
import { settleDemoPool } from "./services/sandbox/demo-contractors.js";
import { accessPlugin } from "./plugins/access.js";
import { deprecationPlugin } from "./plugins/deprecation.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin, logBackgroundError, logOrderFailure } from "./plugins/errors.js";
import type { Writable } from "node:stream";
import { createLogThrottle } from "./plugins/log-throttle.js";
import { inFlightPlugin } from "./plugins/in-flight.js";
import { loggingPlugin } from "./plugins/logging.js";
import { mediaTypePlugin } from "./plugins/media-type.js";
import { metricsPlugin } from "./plugins/metrics.js";
import { oauthClientThrottlePlugin } from "./plugins/oauth-client-throttle.js";
import { originCheckPlugin } from "./plugins/origin-check.js";
import { createLimiters, type Limiters } from "./plugins/limiters.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { requestIdPlugin } from "./plugins/request-id.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { validationFailAction } from "./plugins/validation.js";
import { countMessages } from "./services/shared/field-errors.js";
import { loadRoutes } from "./routes/index.js";
import { createServices, type Services } from "./services/index.js";
import { applyFixtures, readySandboxKey, type SandboxKey } from "./services/sandbox/start-up.js";

export interface DispatchServer {
  server: Hapi.Server;
  services: Services;
  config: Config;
  /** Sandbox mode's ready test key (null outside sandbox mode). */
  sandboxKey: SandboxKey | null;
  stop(): Promise<void>;
}

const redactUrl = (url: string) => url.replace(/\/\/[^@]*@/, "//***@");

/** ioredis loads only when REDIS_URL is set: most servers never need it, and importing it costs start-up time.
 * It is CommonJS: Node's ESM loader detects its named exports, but the build's vendor chunk exports only `default`
 * (module.exports), so the class is read from there, which both provide.
 * A Redis that accepts and stops answering must cost one timeout, not a hang: a command gives up after
 * `timeoutMs` (the limiter's insurance answers), and a socket silent that long after a command is dropped, so
 * the commands after it fail at once (no offline queue) until a reconnection answers its handshake. */
async function connectRedis(url: string | null, timeoutMs: number): Promise<Redis | null> {
  if (!url) return null;
  const { default: ioredis } = await import("ioredis");
  const redis = new ioredis.Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    commandTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  redis.on("error", () => undefined); // reconnects by itself; the limiter's insurance covers the gap
  return redis;
}

/** Node's defaults let a stalled body hold a socket for 5 minutes and check only every 30 s. */
function createListener(requestTimeoutMs: number) {
  return createHttpServer({
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.ceil((requestTimeoutMs * 2) / 3),
    connectionsCheckingInterval: 1000,
    keepAliveTimeout: 5000,
  });
}

/** Logs each Redis outage once (naming REDIS_URL) and its recovery; ioredis keeps reconnecting meanwhile. */
function logRedisOutages(redis: Redis | null, url: string | null, logger: Hapi.Server["logger"]): void {
  let down = false;
  const report = (error: Error) => {
    if (down) return;
    down = true;
    logger.warn(
      { err: error.message },
      `REDIS_URL ${redactUrl(url ?? "")} is unreachable; rate limits are per-process until it is back`,
    );
  };
  redis?.on("error", report);
  redis?.on("ready", () => {
    if (down) logger.info(`REDIS_URL ${redactUrl(url ?? "")} is reachable again`);
    down = false;
  });
}

type DbError = Error & { code?: string };

/** Runs the migrations, on a connection of their own without the statement timeout when one applies (a
 * migration may rightly take longer than any request should). */
async function migrateOnce(db: Db, config: Config): Promise<void> {
  if (!isPostgresUrl(config.databaseUrl) || config.databaseStatementTimeoutMs === 0) return migrate(db);
  const unbounded = createDb(config.databaseUrl);
  try {
    await migrate(unbounded);
  } finally {
    await unbounded.destroy();
  }
}

/** Locks the data directory, opens the database and migrates it; on failure releases both and names DATABASE_URL. */
async function openDatabase(config: Config) {
  const releaseDataDir = await lockDataDir(config.databaseUrl, (error) => {
    console.error(`dispatch: ${error.message}`);
  });
  const db = createDb(config.databaseUrl, { statementTimeoutMs: config.databaseStatementTimeoutMs });
  await migrateOnce(db, config).catch(async (caught: unknown) => {
    const error = caught as DbError;
    await db.destroy();
    await releaseDataDir();
    const reason = error.message || error.code || String(error);
    throw new Error(`DATABASE_URL ${redactUrl(config.databaseUrl)}: cannot open the database: ${reason}`, {
      cause: error,
    });
  });
  return { db, releaseDataDir, fromSnapshot: restoresSnapshot(config.databaseUrl) };
}

function createHapi(config: Config): Hapi.Server {
  return Hapi.server({
    listener: createListener(config.requestTimeoutMs),
    host: config.host,
    port: config.port,
    routes: {
      payload: { maxBytes: 65_536, allow: "application/json" },
      validate: { failAction: validationFailAction, options: { abortEarly: false, messages: countMessages } },
      response: { emptyStatusCode: 204 },
    },
    router: { stripTrailingSlash: true },
    ...drainServerOptions,
  });
}

async function registerPlugins(
  server: Hapi.Server,
  config: Config,
  deps: { services: Services; redis: Redis | null; limiters: Limiters; logStream?: Writable },
): Promise<void> {
  const { services, redis, limiters, logStream } = deps;
  await server.register([
    { plugin: requestIdPlugin },
    { plugin: errorsPlugin },
    { plugin: inFlightPlugin, options: { max: config.maxRequestsInFlight } },
    { plugin: securityHeadersPlugin },
    { plugin: deprecationPlugin },
    { plugin: loggingPlugin, options: { level: config.logLevel, stream: logStream } },
    { plugin: metricsPlugin, options: { metrics: services.metrics, listener: config.metricsListener } },
    { plugin: mediaTypePlugin },
    {
      plugin: originCheckPlugin,
      options: { allowedOrigins: config.mcpAllowedOrigins, publicBaseUrl: config.publicBaseUrl },
    },
    { plugin: authPlugin, options: { services, limiters, trustedProxies: config.trustedProxies } },
    { plugin: accessPlugin, options: { config } },
    { plugin: oauthClientThrottlePlugin, options: { limiters, trustedProxies: config.trustedProxies } },
    {
      plugin: rateLimitPlugin,
      options: { redis, ...config.rateLimit, trustedProxies: config.trustedProxies, limiters },
    },
  ]);
}

/** Background workers: the change feed's LISTEN connection, audit integration, OAuth purge, table statistics,
 * webhook outbox, sandbox walker and dispatcher (both need the real port), the event feed's sequencer and SSE
 * streams. */
async function startWorkers(server: Hapi.Server, services: Services): Promise<void> {
  const backgroundThrottle = createLogThrottle(60_000); // one line per cause per minute during an outage
  /** Every worker's failed run is logged the same way, named by its job and throttled together. */
  const logAs = (job: string) => (error: unknown) => {
    logBackgroundError(server.logger, job, error as Error, backgroundThrottle);
  };
  await services.changes.start(logAs("change-feed"));
  services.auditLog.start(logAs("audit"));
  services.oauthPurger.start(logAs("oauth-purge"));
  services.statistics.start(logAs("statistics")); // analyses grown tables when the database does not (PGlite)
  services.webhooks.start(logAs("webhooks")); // outbox delivery worker; stop() waits for deliveries in flight
  server.ext("onPostStart", () => {
    services.workers.start(server.info.uri, logAs, (failure) => {
      logOrderFailure(server.logger, failure, backgroundThrottle);
    });
  }); // the real port once listening
  services.eventSequencer.start(logAs("event-sequencer"));
  services.eventStreams.start(logAs("event-streams"));
  services.contractorSequencer.start(logAs("contractor-event-sequencer"));
  services.contractorStreams.start(logAs("contractor-event-streams"));
}

/** `logStream` (tests) receives the pino lines instead of stdout. */
export async function createServer(config: Config, options: { logStream?: Writable } = {}): Promise<DispatchServer> {
  // a bad file fails before any I/O; the YAML parser loads only for a fixtures file
  const fixtures = config.fixturesFile
    ? (await import("./services/sandbox/fixtures-file.js")).readFixtures(config.fixturesFile, config)
    : null;
  const { db, releaseDataDir, fromSnapshot } = await openDatabase(config);
  const services = createServices(db, config);
  await settleDemoPool(services.contractors, { seedDemo: config.seedDemo, fromSnapshot });
  if (fixtures) await applyFixtures(services, { file: config.fixturesFile!, content: fixtures });
  const sandboxKey = await readySandboxKey(services, config);
  const redis = await connectRedis(config.redisUrl, config.redisCommandTimeoutMs);
  const limiters = createLimiters(redis, config.rateLimit, config.credentialFailures);
  const server = createHapi(config);
  closeConnectionsOnStop(server, config.shutdownGraceMs);
  await registerPlugins(server, config, { services, redis, limiters, logStream: options.logStream });
  logRedisOutages(redis, config.redisUrl, server.logger);
  if (redis) services.health.watchRateLimitStore(() => redis.ping());
  server.route(await loadRoutes(services));
  await startWorkers(server, services);
  return {
    server,
    services,
    config,
    sandboxKey,
    async stop() {
      // The listener closes first; requests in flight get up to the grace period, then their sockets are cut
      // (server/drain.ts).
      const stopping = server.stop();
      // ends open SSE streams (last comment) so the drain does not wait on them
      await Promise.all([services.eventStreams.stop(), services.contractorStreams.stop()]);
      await stopping;
      await services.workers.stop(); // the sandbox clock and the dispatcher
      await services.webhooks.stop();
      await Promise.all([services.oauthPurger.stop(), services.statistics.stop()]);
      await services.auditLog.stop();
      await services.eventSequencer.stop();
      await services.contractorSequencer.stop();
      await services.changes.stop();
      redis?.disconnect();
      await db.destroy();
      await releaseDataDir();
    },
  };
}

/** Reads the environment, starts listening, and stops cleanly on SIGINT/SIGTERM. */
export async function start(env: NodeJS.ProcessEnv = process.env): Promise<DispatchServer> {
  const app = await createServer(loadConfig(env));
  await app.server.start().catch(async (caught: unknown) => {
    const error = caught as DbError;
    await app.stop();
    const which = error.code === "EADDRINUSE" ? "PORT" : "HOST";
    throw new Error(`${which}: cannot listen on ${app.config.host}:${app.config.port}: ${error.message}`, {
      cause: error,
    });
  });
  const uri = app.server.info.uri;
  app.server.logger.info(
    { uri, docs: `${uri}/docs`, database: redactUrl(app.config.databaseUrl) },
    `dispatch listening on ${uri} (API reference: ${uri}/docs)`,
  );
  // The one place a generated sandbox key is ever shown: CI reads it from this line.
  if (app.sandboxKey?.generated)
    console.error(`dispatch: sandbox key (account ${app.sandboxKey.account}, all scopes): ${app.sandboxKey.key}`);
  stopOnSignals(app);
  return app;
}
