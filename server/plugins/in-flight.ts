// A bound on API requests being handled at once (MAX_REQUESTS_IN_FLIGHT). When a dependency slows down (a lock
// held on a table, a saturated pool), requests pile up in memory faster than they finish; past the bound a new one
// is answered at once with 503 `overloaded` and Retry-After instead of joining the pile, so memory stays bounded
// and a client learns to back off. Health, readiness and metrics are outside /api/ or exempt, so they stay
// answerable while the API sheds load. A request counts from arrival until its handler has answered (not while
// its body streams out, so an open SSE stream holds no slot).
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
