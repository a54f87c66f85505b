// Rate limits with rate-limiter-flexible's BurstyRateLimiter; Redis-backed when REDIS_URL is set.
//
// Algorithm (per key, or per client IP for public routes): a primary fixed window of 100 requests per 60 s,
// and, only while that window is spent, a burst allowance of 100 more requests per 60 s window. So up to 200
// requests may arrive within 10 s; a key never gets more than 200 in one minute; idle keys start full.
// A route names a policy, or a function pricing the request in several policies (an MCP batch costs one
// point per message; an A2A probe skill costs a probe point too), so each capability has one policy whatever
// the surface. With Redis down, limits fall back to this process's memory (the insurance limiter).
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
