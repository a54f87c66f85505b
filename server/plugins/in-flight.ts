// A bound on API requests handled at once (MAX_REQUESTS_IN_FLIGHT): past it a new one is answered `overloaded` at
// once, with Retry-After, instead of piling up in memory behind a slow dependency. Health, readiness and metrics
// stay answerable; a request holds its slot until its handler answers, so an open SSE stream holds none
// (docs/decisions.md, "A bound on requests in flight").
import type { Plugin, Request } from "@hapi/hapi";
import { DomainError } from "../services/errors.js";

const name = "dispatch-in-flight";

/** Paths the bound guards: the API, except the metrics an operator reads to see the overload. */
const isBounded = (path: string) => path.startsWith("/api/") && path !== "/api/admin/v1/metrics";

export const inFlightPlugin: Plugin<{ max: number }> = {
  name,
  register(server, { max }) {
    let inFlight = 0;
    const release = (request: Request) => {
      if (request.plugins[name] !== "counted") return;
      request.plugins[name] = "released";
      inFlight--;
    };

    server.ext("onRequest", (request, h) => {
      if (!isBounded(request.path)) return h.continue;
      if (inFlight >= max)
        throw new DomainError(
          "unavailable",
          "overloaded",
          `This instance is handling ${max} requests; retry shortly.`,
          {
            retryAfterSeconds: 1,
          },
        );
      inFlight++;
      request.plugins[name] = "counted";
      return h.continue;
    });
    server.ext("onPreResponse", (request, h) => {
      release(request);
      return h.continue;
    });
    // A request the client abandoned may end without reaching onPreResponse.
    server.events.on("response", release);
  },
};

declare module "@hapi/hapi" {
  interface PluginsStates {
    "dispatch-in-flight"?: "counted" | "released";
  }
}
