// The one place where errors become HTTP: problem+json (RFC 9457), the fixed 402 body, RFC 6749 OAuth bodies.
import type { Server as HttpServer } from "node:http";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import Boom from "@hapi/boom";
import {
  DomainError,
  EntitlementError,
  OAuthError,
  type ErrorCode,
  type ErrorKind,
  type FieldError,
} from "../services/errors.js";
import { randomBase62 } from "../services/shared/ids.js";
import type { OrderFailure } from "../services/dispatch/orders/index.js";
import { createLogThrottle, type LogThrottle } from "./log-throttle.js";
import { requestIdOf } from "./request-id.js";

/** RFC 6749 §5.2: 400 for every code but a failed client authentication (401); RFC 8628's slow_down is 429. */
const oauthStatusOf: Partial<Record<OAuthError["error"], 401 | 429>> = { invalid_client: 401, slow_down: 429 };

const statusOf: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  rate_limited: 429,
  unavailable: 503,
};
const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Validation failed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};
const boomCodes: Record<number, ErrorCode> = {
  400: "malformed_body",
  401: "unauthorized",
  404: "not_found",
  405: "method_not_allowed",
  413: "payload_too_large",
  415: "unsupported_media_type",
};
// Postgres SQLSTATEs that mean "the database is not there right now" rather than a bug.
const unavailableSqlStates = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);
const unavailableErrnos = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND"]);

interface ProblemInit {
  status: number;
  code: ErrorCode;
  detail?: string;
  errors?: FieldError[];
  retryAfterSeconds?: number;
  keyKind?: DomainError["extra"]["keyKind"];
}

/** Longest word (a value without spaces: an id, a URL, a date) and longest message a problem repeats whole. */
const echoedWordLimit = 100;
const messageLimit = 1000;

/**
 * Messages repeat values the request sent (an id, a window, an agent's argument); a long one is cut to its first
 * characters with its length said, and a whole message to messageLimit, so a problem never carries a long field (a
 * description, an agent's argument) back to the client whole.
 */
export function boundedMessage(text: string): string {
  const words = text.replace(/\S+/gu, (word) => {
    const chars = Array.from(word);
    return chars.length <= echoedWordLimit ? word : `${chars.slice(0, 60).join("")}… (${chars.length} characters)`;
  });
  const chars = Array.from(words);
  return chars.length <= messageLimit
    ? words
    : `${chars.slice(0, messageLimit).join("")}… (${chars.length} characters)`;
}

function problem(request: Request, init: ProblemInit) {
  const slug = init.code.replace(/_/g, "-");
  return {
    type: `https://dispatch.example/problems/${slug}`,
    title: init.status === 422 ? "Validation failed" : (titles[init.status] ?? "Error"),
    status: init.status,
    ...(init.detail ? { detail: boundedMessage(init.detail) } : {}),
    instance: request.path,
    code: init.code,
    request_id: requestIdOf(request),
    ...(init.errors
      ? { errors: init.errors.map((e) => ({ pointer: boundedMessage(e.pointer), message: boundedMessage(e.message) })) }
      : {}),
    ...(init.retryAfterSeconds !== undefined ? { retry_after_seconds: init.retryAfterSeconds } : {}),
    ...(init.keyKind ? { key_kind: init.keyKind } : {}),
  };
}

type Classified = ProblemInit & { log?: "warn" | "error"; headers?: Record<string, string> };
type RawError = Boom.Boom & { code?: string; errno?: string };

const domainProblem = (error: DomainError): Classified => ({
  status: statusOf[error.kind],
  code: error.code,
  detail: error.message,
  errors: error.extra.errors,
  retryAfterSeconds: error.extra.retryAfterSeconds,
  keyKind: error.extra.keyKind,
  ...(error.extra.challenge ? { headers: { "www-authenticate": error.extra.challenge } } : {}),
});

/** A lost or starting database (by SQLSTATE, errno or driver message) is a 503 to retry, not a 500. */
export const isDatabaseUnavailable = (error: Error & { code?: unknown }): boolean =>
  (typeof error.code === "string" && (unavailableSqlStates.has(error.code) || unavailableErrnos.has(error.code))) ||
  /Connection terminated|timeout acquiring a connection|not queryable|connection error|the database system is (starting up|shutting down)/i.test(
    error.message,
  );

/**
 * One line per cause per throttle window: a warn without stack, or an error with it. An outage (warn) is one cause
 * per label whatever the driver says ("Connection terminated" while the server goes down, then ECONNREFUSED);
 * a bug (error) is one cause per label and message, so two different bugs are both seen.
 */
function logThrottled(
  logger: Logger,
  level: "warn" | "error",
  fields: { job: string } | { code: string },
  error: Error,
  throttle: LogThrottle,
) {
  const label = "job" in fields ? fields.job : fields.code;
  const taken = throttle.take(level === "warn" ? label : `${label}:${error.message.slice(0, 200)}`);
  if (!taken) return;
  const extra = taken.suppressed ? { suppressed: taken.suppressed } : {};
  if (level === "warn") logger.warn({ ...fields, cause: error.message, ...extra }, `${label}: ${error.message}`);
  else logger.error({ ...fields, err: error, ...extra }, `${label}: ${error.message}`);
}

/** Logs a background job's failure: an outage as one warn line, a bug with its stack; once per cause per window. */
export function logBackgroundError(logger: Logger, job: string, error: Error, throttle: LogThrottle): void {
  logThrottled(logger, isDatabaseUnavailable(error) ? "warn" : "error", { job }, error, throttle);
}

/** Logs an order a background pass skipped (the pass went on without it) once per step and cause per window,
 * naming the order and its tenant: a refusal with a SQLSTATE without a stack (the driver's says nothing), anything
 * else with it; an outage as a warn. */
export function logOrderFailure(logger: Logger, failure: OrderFailure, throttle: LogThrottle): void {
  const { step, order, cause } = failure;
  const taken = throttle.take(`order:${step}:${cause}`);
  if (!taken) return;
  const error = failure.error instanceof Error ? failure.error : new Error(String(failure.error));
  const job = step === "sandbox_step" ? "sandbox" : "dispatcher";
  const fields = {
    job,
    step,
    cause,
    order: order.id,
    account: order.account,
    environment: order.environment,
    ...(taken.suppressed ? { suppressed: taken.suppressed } : {}),
  };
  const message = `${job}: skipped order ${order.id} (${step}, ${cause}): ${error.message}`;
  const refused = /^[0-9A-Z]{5}$/.test(cause); // a SQLSTATE: the database refused this order's write
  if (isDatabaseUnavailable(error)) logger.warn(fields, message);
  else logger.error(refused ? fields : { ...fields, err: error }, message);
}

function boomProblem(request: Request, error: RawError): Classified {
  const status = error.output.statusCode;
  if (status >= 500)
    return {
      status: 500,
      code: "internal_error",
      detail: "An unexpected error occurred; it has been logged.",
      log: "error",
    };
  const headers = error.output.headers as Record<string, string>;
  const detail =
    status === 401
      ? authDetail(error)
      : status === 404
        ? "No route matches this address."
        : status === 415
          ? mediaTypeDetail(request)
          : error.output.payload.message;
  return { status, code: boomCodes[status] ?? "client_error", detail, headers };
}

function classify(request: Request, error: RawError): Classified {
  if (error instanceof DomainError) return domainProblem(error);
  if (typeof error.code === "string" && error.code === "23505")
    return { status: 409, code: "conflict", detail: "The resource already exists." };
  // statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS) cancelled it: the database is there but too slow or locked.
  if (error.code === "57014")
    return {
      status: 503,
      code: "database_timeout",
      detail: "The database did not answer in time; retry shortly.",
      retryAfterSeconds: 5,
      log: "warn",
    };
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: "database_unavailable",
      detail: "The database is unreachable; retry shortly.",
      retryAfterSeconds: 5,
      log: "warn",
    };
  }
  return boomProblem(request, error);
}

const probedMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** The methods routed at this request's path (plus HEAD, which Hapi answers for GET), or none. */
function allowedMethods(request: Request): string[] {
  const allowed = probedMethods.filter((method) => request.server.match(method, request.path) !== null);
  return (allowed.includes("GET") ? [...allowed, "HEAD"] : [...allowed]).sort();
}

/** 404s that are really a wrong method become 405 with `Allow` (RFC 9110 §15.5.6). */
function methodNotAllowed(request: Request, error: Boom.Boom): Boom.Boom {
  // Hapi's own not-found route has the internal method "_special"; a route's own 404 is left alone.
  const method: string = request.route.method;
  if (error.output.statusCode !== 404 || method !== "_special") return error;
  const allowed = allowedMethods(request);
  if (allowed.length === 0) return error;
  const detail = `${request.method.toUpperCase()} is not allowed here; use ${allowed.join(", ")}.`;
  return Boom.methodNotAllowed(detail, undefined, allowed);
}

/** 415 names the media types the route does accept. */
function mediaTypeDetail(request: Request): string {
  const allow = request.route.settings.payload?.allow;
  const types = Array.isArray(allow) ? allow : [allow ?? "application/json"];
  return `Send the body with content-type: ${types.join(" or ")}.`;
}

function authDetail(error: Boom.Boom): string {
  const message = error.output.payload.message;
  const admin = String(error.output.headers["WWW-Authenticate"] ?? "").includes("dispatch-admin");
  if (admin && (!message || message === "Missing authentication"))
    return "Missing credential: send the operator token (the server's DISPATCH_ADMIN_TOKEN) as Authorization: Bearer.";
  if (!message || message === "Missing authentication")
    return "Missing credential: send a provisioned key in x-api-key (or, for quotes, an OAuth token as Authorization: Bearer).";
  return message;
}

/**
 * Logs a 5xx once per cause per 10 s (see log-throttle.ts): an unreachable database is one warn line without a
 * stack (it is an outage, not a bug); an unexpected error is one error line with its stack.
 */

function onPreResponse(request: Request, h: ResponseToolkit, throttle: LogThrottle) {
  const response = request.response;
  if (!("isBoom" in response) || !response.isBoom) return h.continue;
  const error = methodNotAllowed(request, response);
  if (error instanceof EntitlementError) return h.response(error.body).code(402).type("application/json");
  if (error instanceof OAuthError) {
    const status = oauthStatusOf[error.error] ?? 400;
    const out = h
      .response({ error: error.error, error_description: error.description })
      .code(status)
      .type("application/json")
      .header("cache-control", "no-store");
    if (error.retryAfterSeconds !== undefined) out.header("retry-after", String(error.retryAfterSeconds));
    return status === 401 ? out.header("www-authenticate", 'Basic realm="dispatch-oauth"') : out;
  }
  const init = classify(request, error);
  if (init.log) logThrottled(request.logger, init.log, { code: init.code }, error, throttle);
  const out = h.response(problem(request, init)).code(init.status).type("application/problem+json");
  for (const [name, value] of Object.entries(init.headers ?? {})) out.header(name, value);
  if (init.retryAfterSeconds !== undefined) out.header("retry-after", String(init.retryAfterSeconds));
  return out;
}

/** A route's own payload failAction handles parse failures only; 413/415 stay problems from here. */
export const isParseError = (error: unknown): boolean =>
  error instanceof Error && Boom.isBoom(error) && error.output.statusCode === 400;

/** 413 is a problem on every endpoint, even those whose other payload errors have their own format. */
export const isTooLarge = (error: unknown): boolean =>
  error instanceof Error && Boom.isBoom(error) && error.output.statusCode === 413;

/** Requests Node's HTTP parser rejects never reach Hapi; answer them with a problem body instead of an empty 400. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  if (!socket.writable || error.code === "ECONNRESET") return void socket.destroy();
  const body = JSON.stringify({
    type: "https://dispatch.example/problems/malformed-request",
    title: "Bad Request",
    status: 400,
    detail: "The HTTP request could not be parsed.",
    code: "malformed_request",
    request_id: `req_${randomBase62(16)}`,
  });
  const head = `HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
  socket.end(head + body);
}

export const errorsPlugin: Plugin<void> = {
  name: "dispatch-errors",
  register(server) {
    const throttle = createLogThrottle(10_000);
    server.ext("onPreResponse", (request, h) => onPreResponse(request, h, throttle));
    const listener: HttpServer = server.listener;
    listener.removeAllListeners("clientError");
    listener.on("clientError", answerClientError);
  },
};
