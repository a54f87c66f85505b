// createServer(config) assembles plugins, routes and services; start() runs it from the environment.
import Hapi from "@hapi/hapi";
import { Redis } from "ioredis";
import { loadConfig, type Config } from "./config.js";
import { createDb } from "./db/knex.js";
import { migrate } from "./db/migrate.js";
import { seedDemoContractors } from "./db/seeds/demo-contractors.js";
import { authPlugin } from "./plugins/auth.js";
import { errorsPlugin } from "./plugins/errors.js";
import { loggingPlugin } from "./plugins/logging.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { requestIdPlugin } from "./plugins/request-id.js";
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
  redis.on("error", () => undefined); // reconnects by itself; the limiter's insurance covers the gap
  return redis;
}

export async function createServer(config: Config): Promise<DispatchServer> {
  const db = createDb(config.databaseUrl);
  await migrate(db);
  const services = createServices(db, config);
  if (config.seedDemo) await seedDemoContractors(services.contractors);
  const redis = connectRedis(config.redisUrl);

  const server = Hapi.server({
    host: config.host,
    port: config.port,
    routes: {
      payload: { maxBytes: 65_536 },
      validate: { failAction: validationFailAction, options: { abortEarly: false } },
      response: { emptyStatusCode: 204 },
    },
    router: { stripTrailingSlash: true },
  });
  await server.register([
    { plugin: requestIdPlugin },
    { plugin: errorsPlugin },
    { plugin: loggingPlugin, options: { level: config.logLevel } },
    { plugin: authPlugin, options: { services } },
    { plugin: rateLimitPlugin, options: { redis, ...config.rateLimit } },
  ]);
  server.route(await loadRoutes(services));
  services.webhooks.start(); // outbox delivery worker; stop() below waits for deliveries in flight

  return {
    server,
    services,
    config,
    async stop() {
      await server.stop({ timeout: 5000 });
      await services.webhooks.stop();
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
