// Rate limits with rate-limiter-flexible's BurstyRateLimiter (a fixed window, and a burst allowance drawn on only
// while it is spent), Redis-backed when REDIS_URL is set and in this process's memory while Redis is down. A route
// names a policy, or prices a request in several (an MCP batch, an A2A probe skill), so each capability has one
// policy whatever the surface (docs/decisions.md, "Rate limits: a window and a burst, one policy per capability").
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import type { Redis } from "ioredis";
import { clientBucketOf } from "./client-ip.js";
import { createLimiters, type Cost, type LimitPolicy, type Limiters } from "./limiters.js";

export { policies, type LimitPolicy } from "./limiters.js";

/** A route's `plugins.rateLimit`: one policy (one point), or the request's price. */
export type RouteLimit = LimitPolicy | "none" | ((request: Request) => Cost[]);

/** Whom the request counts against: a key, or the client address (IPv6: its /64) for anonymous callers and
 * self-serve OAuth clients (clients cost nothing to register, so their quota follows the address that made them). */
export function subjectOf(request: Request, trustedProxies: readonly string[]): string {
  const principal = request.auth.credentials?.principal;
  return principal?.kind === "key" || principal?.kind === "contractor"
    ? `p:${principal.id}`
    : `ip:${clientBucketOf(request, trustedProxies)}`;
}

function costsOf(request: Request): Cost[] {
  const setting = request.route.settings.plugins?.rateLimit ?? "default";
  if (setting === "none") return [];
  return typeof setting === "function" ? setting(request) : [{ policy: setting, points: 1 }];
}

export const rateLimitPlugin: Plugin<{
  redis: Redis | null;
  points: number;
  burst: number;
  trustedProxies: readonly string[];
  limiters?: Limiters;
}> = {
  name: "dispatch-rate-limit",
  register(server, { redis, points, burst, trustedProxies, limiters: given }) {
    const limiters = given ?? createLimiters(redis, { points, burst });

    server.ext("onPostAuth", async (request: Request, h: ResponseToolkit) => {
      const subject = subjectOf(request, trustedProxies);
      for (const cost of costsOf(request)) {
        const outcome = await limiters.consume(cost.policy, subject, cost.points);
        // The first policy a route names is the one its RateLimit headers describe.
        request.plugins["dispatch-rate-limit"] ??= outcome.headers;
        if (outcome.error) {
          request.plugins["dispatch-rate-limit"] = outcome.headers;
          throw outcome.error;
        }
      }
      return h.continue;
    });

    server.ext("onPreResponse", (request: Request, h: ResponseToolkit) => {
      const extra = request.plugins["dispatch-rate-limit"];
      const response = request.response;
      if (!extra) return h.continue;
      if (Boom.isBoom(response)) {
        if (response.output.statusCode === 429) Object.assign(response.output.headers, extra);
        return h.continue;
      }
      for (const [name, value] of Object.entries(extra)) response.header(name, value);
      return h.continue;
    });
  },
};

declare module "@hapi/hapi" {
  interface PluginsStates {
    "dispatch-rate-limit"?: Record<string, string>;
  }
  interface PluginSpecificConfiguration {
    /** The route's price in the rate limiter (default: one point of the default policy). */
    rateLimit?: RouteLimit;
  }
}
