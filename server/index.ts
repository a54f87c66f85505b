// createServer(config) assembles plugins, routes and services; start() runs it from the environment.
import { createServer as createHttpServer } from "node:http";
import Hapi from "@hapi/hapi";
import { Redis } from "ioredis";
import { loadConfig, type Config } from "./config.js";
import { createDb } from "./db/knex.js";
import { migrate } from "./db/migrate.js";
import { seedDemoContractors } from "./db/seeds/demo-contractors.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin } from "./plugins/errors.js";
import { loggingPlugin } from "./plugins/logging.js";
import { mediaTypePlugin } from "./plugins/media-type.js";
import { originCheckPlugin } from "./plugins/origin-check.js";
import { createLimiters } from "./plugins/limiters.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { requestIdPlugin } from "./plugins/request-id.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { validationFailAction } from "./plugins/validation.js";
import { loadRoutes } from "./routes/index.js";
import { createServices, type Services } from "./services/index.js";

export interface DispatchServer {
  server: Hapi.Server;
  services: Services;
  config: Config;
  stop(): Promise<void>;
}

function connectRedis(url: string | null): Redis | null {
  if (!url) return null;
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on("error", () => {}); // reconnects by itself; the limiter's insurance covers the gap
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

export async function createServer(config: Config): Promise<DispatchServer> {
  const db = createDb(config.databaseUrl);
  await migrate(db);
  const services = createServices(db, config);
  await services.changes.start();
  if (config.seedDemo) await seedDemoContractors(services.contractors);
  const redis = connectRedis(config.redisUrl);
  const limiters = createLimiters(redis, config.rateLimit);

  const server = Hapi.server({
    listener: createListener(config.requestTimeoutMs),
    host: config.host,
    port: config.port,
    routes: {
      payload: { maxBytes: 65_536, allow: "application/json" },
      validate: { failAction: validationFailAction, options: { abortEarly: false } },
      response: { emptyStatusCode: 204 },
    },
    router: { stripTrailingSlash: true },
  });
  await server.register([
    { plugin: requestIdPlugin },
    { plugin: errorsPlugin },
    { plugin: securityHeadersPlugin },
    { plugin: loggingPlugin, options: { level: config.logLevel } },
    { plugin: mediaTypePlugin },
    {
      plugin: originCheckPlugin,
      options: { allowedOrigins: config.mcpAllowedOrigins, publicBaseUrl: config.publicBaseUrl },
    },
    { plugin: authPlugin, options: { services, limiters, trustedProxies: config.trustedProxies } },
    {
      plugin: rateLimitPlugin,
      options: { redis, ...config.rateLimit, trustedProxies: config.trustedProxies, limiters },
    },
  ]);
  server.route(await loadRoutes(services));
  await services.auditLog.start((error) => server.log(["error", "audit"], error as Error));
  services.webhooks.start(); // outbox delivery worker; stop() below waits for deliveries in flight
  server.ext("onPostStart", () => services.sandbox.start(server.info.uri)); // the real port once listening
  services.eventStreams.start();

  return {
    server,
    services,
    config,
    async stop() {
      await services.eventStreams.stop(); // ends open SSE streams so the server does not wait on them
      await server.stop({ timeout: 5000 });
      await services.sandbox.stop();
      await services.webhooks.stop();
      await services.auditLog.stop();
      await services.changes.stop();
      redis?.disconnect();
      await db.destroy();
    },
  };
}

/** Reads the environment, starts listening, and stops cleanly on SIGINT/SIGTERM. */
export async function start(env: NodeJS.ProcessEnv = process.env): Promise<DispatchServer> {
  const app = await createServer(loadConfig(env));
  await app.server.start();
  app.server.logger.info(
    { uri: app.server.info.uri, database: app.config.databaseUrl.replace(/\/\/[^@]*@/, "//***@") },
    "dispatch listening",
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void app.stop().then(() => process.exit(0)));
  }
  return app;
}
