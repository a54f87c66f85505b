// Rate limits with rate-limiter-flexible's BurstyRateLimiter; Redis-backed when REDIS_URL is set.
//
// Algorithm (per key, or per client IP for public routes): a primary fixed window of 100 requests per 60 s,
// and, only while that window is spent, a burst allowance of 100 more requests per 60 s window. So up to 200
// requests may arrive within 10 s; a key never gets more than 200 in one minute; idle keys start full.
// The probe has its own bucket per IP: 10 per 60 s, burst 0. With Redis down, limits fall back to this
// process's memory (the insurance limiter) instead of failing requests.
import type { Plugin, Request, ResponseObject, ResponseToolkit } from "@hapi/hapi";
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { DomainError } from "../services/errors.js";
import type { Principal } from "./auth.js";

export type LimitPolicy = "default" | "probe" | "none";
export interface PolicySettings {
  points: number;
  burst: number;
  duration: number;
}
export const policies: Record<Exclude<LimitPolicy, "none">, PolicySettings> = {
  default: { points: 100, burst: 100, duration: 60 },
  probe: { points: 10, burst: 0, duration: 60 },
};

function makeLimiter(redis: Redis | null, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  return redis
    ? new RateLimiterRedis({
        storeClient: redis,
        useRedisPackage: false,
        keyPrefix,
        points,
        duration,
        insuranceLimiter: memory,
      })
    : memory;
}

interface Limiter {
  settings: PolicySettings;
  burst: RateLimiterAbstract | null;
  bursty: BurstyRateLimiter | RateLimiterAbstract;
}

function makePolicy(redis: Redis | null, name: string, s: PolicySettings): Limiter {
  const primary = makeLimiter(redis, `rl:${name}`, s.points, s.duration);
  if (!s.burst) return { settings: s, burst: null, bursty: primary };
  const burst = makeLimiter(redis, `rl:${name}:burst`, s.burst, s.duration);
  return { settings: s, burst, bursty: new BurstyRateLimiter(primary, burst) };
}

function subjectOf(request: Request): string {
  const principal = (request.auth.credentials as { principal?: Principal } | null)?.principal;
  return principal ? `p:${principal.id}` : `ip:${request.info.remoteAddress}`;
}

function headers(name: string, s: PolicySettings, remaining: number, resetSeconds: number) {
  return {
    "RateLimit-Policy": `"${name}";q=${s.points + s.burst};w=${s.duration}`,
    RateLimit: `"${name}";r=${Math.max(0, remaining)};t=${remaining > 0 ? 0 : resetSeconds}`,
  };
}

export const rateLimitPlugin: Plugin<{ redis: Redis | null; points: number; burst: number }> = {
  name: "dispatch-rate-limit",
  // eslint-disable-next-line max-lines-per-function -- to split after the harden rewrite of this file lands (issue 12)
  register(server, { redis, points, burst }) {
    const limiters = {
      default: makePolicy(redis, "default", { ...policies.default, points, burst }),
      probe: makePolicy(redis, "probe", policies.probe),
    };

    server.ext("onPostAuth", async (request: Request, h: ResponseToolkit) => {
      const policy = (request.route.settings.plugins as { rateLimit?: LimitPolicy }).rateLimit ?? "default";
      if (policy === "none") return h.continue;
      const limiter = limiters[policy];
      const key = subjectOf(request);
      try {
        const res = await limiter.bursty.consume(key);
        const burstUsed = limiter.burst ? ((await limiter.burst.get(key))?.consumedPoints ?? 0) : 0;
        const remaining = res.remainingPoints + (limiter.settings.burst - burstUsed);
        request.plugins["dispatch-rate-limit"] = headers(
          policy,
          limiter.settings,
          remaining,
          Math.ceil(res.msBeforeNext / 1000),
        );
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        request.plugins["dispatch-rate-limit"] = headers(policy, limiter.settings, 0, retryAfter);
        throw new DomainError(
          "rate_limited",
          "rate_limited",
          `Rate limit exceeded: ${limiter.settings.points} requests per ${limiter.settings.duration} s${limiter.settings.burst ? ` with bursts up to ${limiter.settings.points + limiter.settings.burst}` : ""}.`,
          { retryAfterSeconds: retryAfter },
        );
      }
      return h.continue;
    });

    server.ext("onPreResponse", (request: Request, h: ResponseToolkit) => {
      const extra = request.plugins["dispatch-rate-limit"];
      const response = request.response;
      if (extra && !("isBoom" in response && response.isBoom))
        for (const [name, value] of Object.entries(extra)) (response as ResponseObject).header(name, value);
      return h.continue;
    });
  },
};

declare module "@hapi/hapi" {
  interface PluginsStates {
    "dispatch-rate-limit"?: Record<string, string>;
  }
}
