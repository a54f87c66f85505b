// The limiter policies and their buckets (rate-limiter-flexible), shared by the rate-limit and auth plugins.
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import { DomainError } from "../services/errors.js";

export type LimitPolicy = "default" | "probe" | "auth-failure" | "auth-failure-address" | "oauth-register";
export interface PolicySettings {
  points: number;
  burst: number;
  duration: number;
  /** What the points count, in the 429's message; requests unless said. */
  unit?: string;
}
export interface Cost {
  policy: LimitPolicy;
  points: number;
}
export const policies: Record<LimitPolicy, PolicySettings> = {
  default: { points: 100, burst: 100, duration: 60 },
  /** The readiness probe fetches third-party sites: 10 per minute per client, on every surface. */
  probe: { points: 10, burst: 0, duration: 60 },
  /** Failures of one credential (key, token, admin token, OAuth client) from one client address. */
  "auth-failure": { points: 20, burst: 0, duration: 300, unit: "failed attempts with one credential" },
  /** Failed credentials of any kind from one client address (credential-throttle.ts argues the bound). */
  "auth-failure-address": { points: 200, burst: 0, duration: 300, unit: "failed credentials from one address" },
  /** Self-serve OAuth client registrations per client IP. */
  "oauth-register": { points: 10, burst: 0, duration: 3600 },
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
  primary: RateLimiterAbstract;
  burst: RateLimiterAbstract | null;
  bursty: BurstyRateLimiter | RateLimiterAbstract;
}

function makePolicy(redis: Redis | null, name: string, s: PolicySettings): Limiter {
  const primary = makeLimiter(redis, `rl:${name}`, s.points, s.duration);
  if (!s.burst) return { settings: s, primary, burst: null, bursty: primary };
  const burst = makeLimiter(redis, `rl:${name}:burst`, s.burst, s.duration);
  return { settings: s, primary, burst, bursty: new BurstyRateLimiter(primary, burst) };
}

/** The RateLimit and RateLimit-Policy header values (draft-ietf-httpapi-ratelimit-headers) for one policy. */
export function headers(name: string, s: PolicySettings, remaining: number, resetSeconds: number) {
  return {
    "RateLimit-Policy": `"${name}";q=${s.points + s.burst};w=${s.duration}`,
    RateLimit: `"${name}";r=${Math.max(0, remaining)};t=${remaining > 0 ? 0 : resetSeconds}`,
  };
}

function limitedError(s: PolicySettings, retryAfter: number): DomainError {
  const bursts = s.burst ? ` with bursts up to ${s.points + s.burst}` : "";
  return new DomainError(
    "rate_limited",
    "rate_limited",
    `Rate limit exceeded: ${s.points} ${s.unit ?? "requests"} per ${s.duration} s${bursts}.`,
    {
      retryAfterSeconds: retryAfter,
    },
  );
}

/** How long a credential that authenticated from an address stays known there, and how often it is re-marked. */
const knownSeconds = 900;
const remarkMs = 60_000;

/** Marks (address, credential) subjects that authenticated; re-marking is skipped for a minute per process, so
 * a busy key costs one store write a minute, not one per request. */
function createKnownCredentials(redis: Redis | null) {
  const store = makeLimiter(redis, "rl:auth-known", 1, knownSeconds);
  const marked = new Map<string, number>(); // emptied when full, like client-ip's memo
  return {
    async remember(subject: string): Promise<void> {
      const now = Date.now();
      if ((marked.get(subject) ?? -Infinity) > now - remarkMs) return;
      if (marked.size >= 10_000) marked.clear();
      marked.set(subject, now);
      await store.set(subject, 1, knownSeconds);
    },
    async remembered(subject: string): Promise<boolean> {
      return (await store.get(subject)) !== null;
    },
  };
}

export interface Outcome {
  headers: Record<string, string>;
  /** Set when the subject is over the limit: a 429 with Retry-After. */
  error?: DomainError;
}

/** The failed-credential budgets' defaults (credential-throttle.ts argues them). */
const credentialDefaults = {
  perCredential: policies["auth-failure"].points,
  perAddress: policies["auth-failure-address"].points,
};

type CredentialBudgets = typeof credentialDefaults;

/** Each policy's settings: the default from RATE_LIMIT_*, the failed-credential budgets their own, the rest scaled. */
function settingsFor(defaults: { points: number; burst: number }, credentials: CredentialBudgets) {
  // RATE_LIMIT_POINTS raised for a load test scales the other per-client request budgets alike, but never the
  // failed-credential budgets: those bound guessing, which a load test has no reason to loosen.
  const scale = Math.max(1, defaults.points / policies.default.points);
  const own: Partial<Record<LimitPolicy, Partial<PolicySettings>>> = {
    default: defaults,
    "auth-failure": { points: credentials.perCredential },
    "auth-failure-address": { points: credentials.perAddress },
  };
  return (name: LimitPolicy, s: PolicySettings): PolicySettings =>
    own[name] ? { ...s, ...own[name] } : { ...s, points: Math.round(s.points * scale) };
}

export function createLimiters(
  redis: Redis | null,
  defaults: { points: number; burst: number },
  credentials: CredentialBudgets = credentialDefaults,
) {
  const settingsOf = settingsFor(defaults, credentials);
  const all = Object.fromEntries(
    Object.entries(policies).map(([name, s]) => [name, makePolicy(redis, name, settingsOf(name as LimitPolicy, s))]),
  ) as Record<LimitPolicy, Limiter>;

  /** Points spent in the subject's current window, and the 429 to answer when that is the whole budget. */
  async function status(policy: LimitPolicy, subject: string) {
    const limiter = all[policy];
    const res = await limiter.primary.get(subject);
    const consumed = res?.consumedPoints ?? 0;
    if (!res || consumed < limiter.settings.points) return { consumed, refusal: null };
    return { consumed, refusal: limitedError(limiter.settings, Math.max(1, Math.ceil(res.msBeforeNext / 1000))) };
  }

  return {
    ...createKnownCredentials(redis),
    status,
    /** Takes `points` from the subject's bucket; over the limit, the outcome carries the 429 to throw. */
    async consume(policy: LimitPolicy, subject: string, points = 1): Promise<Outcome> {
      const limiter = all[policy];
      try {
        const res = await limiter.bursty.consume(subject, points);
        const burstUsed = limiter.burst ? ((await limiter.burst.get(subject))?.consumedPoints ?? 0) : 0;
        const remaining = res.remainingPoints + (limiter.settings.burst - burstUsed);
        return { headers: headers(policy, limiter.settings, remaining, Math.ceil(res.msBeforeNext / 1000)) };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        return {
          headers: headers(policy, limiter.settings, 0, retryAfter),
          error: limitedError(limiter.settings, retryAfter),
        };
      }
    },

    /** The 429 to answer when the subject has already spent the policy, without spending more. */
    async refusal(policy: LimitPolicy, subject: string): Promise<DomainError | null> {
      return (await status(policy, subject)).refusal;
    },
  };
}

export type Limiters = ReturnType<typeof createLimiters>;
