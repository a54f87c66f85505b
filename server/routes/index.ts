// Loads every route module under server/routes/<tag>/<action>.ts.
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerRoute } from "@hapi/hapi";
import type { Services } from "../services/index.js";
import type { RouteFactory } from "./types.js";
import { createOperationHandlers } from "./operation-handle.js";
import { onCallersClock } from "./tenant-clock.js";

const dir = fileURLToPath(new URL("./", import.meta.url));

function routeFiles(): string[] {
  return readdirSync(dir)
    .filter((entry) => statSync(dir + entry).isDirectory())
    .flatMap((tag) =>
      readdirSync(dir + tag)
        .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith(".d.ts") && !f.endsWith(".test.ts"))
        .map((f) => `${dir}${tag}/${f}`),
    )
    .sort();
}

const importRouteModules = (): Promise<{ default: RouteFactory }[]> =>
  Promise.all(routeFiles().map((file) => import(pathToFileURL(file).href) as Promise<{ default: RouteFactory }>));

/** Every route, built from the services; the operations' `handle`s go into the registry the agents call. */
export async function loadRoutes(services: Services): Promise<ServerRoute[]> {
  const modules = await importRouteModules();
  const { handlers, register } = createOperationHandlers();
  const routes = modules.flatMap((m) => m.default(services, handlers)).map((r) => onCallersClock(r, services));
  register(routes);
  return routes;
}
