// A route module's default export: builds its Hapi route(s) from the services.
import type { ServerRoute } from "@hapi/hapi";
import type { Services } from "../services/index.js";

export type RouteFactory = (services: Services) => ServerRoute | ServerRoute[];
