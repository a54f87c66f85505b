// The one place where errors become HTTP: problem+json (RFC 9457), the fixed 402 body, RFC 6749 OAuth bodies.
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import type { Boom } from "@hapi/boom";
import { DomainError, EntitlementError, OAuthError, type ErrorKind, type FieldError } from "../services/errors.js";
import { requestIdOf } from "./request-id.js";

const statusOf: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  validation: 422,
  rate_limited: 429,
  unavailable: 503,
};
const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
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
const boomCodes: Record<number, string> = {
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
  code: string;
  detail?: string;
  errors?: FieldError[];
  retryAfterSeconds?: number;
}

function problem(request: Request, init: ProblemInit) {
  const slug = init.code.replace(/_/g, "-");
  return {
    type: `https://dispatch.example/problems/${slug}`,
    title: init.status === 422 ? "Validation failed" : (titles[init.status] ?? "Error"),
    status: init.status,
    ...(init.detail ? { detail: init.detail } : {}),
    instance: request.path,
    code: init.code,
    request_id: requestIdOf(request),
    ...(init.errors ? { errors: init.errors } : {}),
    ...(init.retryAfterSeconds !== undefined ? { retry_after_seconds: init.retryAfterSeconds } : {}),
  };
}

// eslint-disable-next-line max-lines-per-function -- to split after the protocol/harden rewrite of this file lands (issue 12)
function classify(
  error: Boom & { code?: string; errno?: string },
): ProblemInit & { log?: "warn" | "error"; headers?: Record<string, string> } {
  if (error instanceof DomainError) {
    return {
      status: statusOf[error.kind],
      code: error.code,
      detail: error.message,
      errors: error.extra.errors,
      retryAfterSeconds: error.extra.retryAfterSeconds,
    };
  }
  if (typeof error.code === "string" && error.code === "23505")
    return { status: 409, code: "conflict", detail: "The resource already exists." };
  if (
    (typeof error.code === "string" && (unavailableSqlStates.has(error.code) || unavailableErrnos.has(error.code))) ||
    /Connection terminated|timeout acquiring a connection|not queryable|connection error|the database system is (starting up|shutting down)/i.test(
      error.message,
    )
  ) {
    return {
      status: 503,
      code: "database_unavailable",
      detail: "The database is unreachable; retry shortly.",
      retryAfterSeconds: 5,
      log: "warn",
    };
  }
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
        : error.output.payload.message;
  return { status, code: boomCodes[status] ?? "client_error", detail, headers };
}

function authDetail(error: Boom): string {
  const message = error.output.payload.message;
  if (!message || message === "Missing authentication")
    return "Missing credential: send a provisioned key in x-api-key (or, for quotes, an OAuth token as Authorization: Bearer).";
  return message;
}

function onPreResponse(request: Request, h: ResponseToolkit) {
  const response = request.response;
  if (!("isBoom" in response) || !response.isBoom) return h.continue;
  const error = response;
  if (error instanceof EntitlementError) return h.response(error.body).code(402).type("application/json");
  if (error instanceof OAuthError) {
    const out = h
      .response({ error: error.error, error_description: error.description })
      .code(error.status)
      .type("application/json")
      .header("cache-control", "no-store");
    return error.status === 401 ? out.header("www-authenticate", 'Basic realm="dispatch-oauth"') : out;
  }
  const init = classify(error);
  if (init.log) request.log([init.log], error);
  const out = h.response(problem(request, init)).code(init.status).type("application/problem+json");
  for (const [name, value] of Object.entries(init.headers ?? {})) out.header(name, value);
  if (init.retryAfterSeconds !== undefined) out.header("retry-after", String(init.retryAfterSeconds));
  return out;
}

export const errorsPlugin: Plugin<void> = {
  name: "dispatch-errors",
  register(server) {
    server.ext("onPreResponse", onPreResponse);
  },
};
