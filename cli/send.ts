// Sends one operation and turns the answer into data or a CliError. One-shot requests go over node:http (cli/http.ts)
// with the SDK's rules (credential header per operation, Idempotency-Key on createOrder, retries, deprecation notice);
// streams use the SDK's fetch client (clientFor).
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import { credentialHeader } from "../sdk/auth.js";
import { createDispatchClient, formatDeprecationNotice, type DeprecationNotice } from "../sdk/index.js";
import { noticeDeprecation } from "../sdk/deprecation.js";
import { createsOrder } from "../sdk/idempotency.js";
import { isRetryableStatus, retryAfterMs, retryDefaults, safeToResend } from "../sdk/retry.js";
import { apiFailure } from "./api-failure.js";
import type { CliContext } from "./context.js";
import { CliError, ExitCode, networkError, usageError } from "./errors.js";
import type { HttpAnswer, HttpRequest } from "./http.js";
import type { operations as ContractOperations } from "../sdk/generated/openapi.js";
import { operations } from "./generated/operations.js";
import type { OperationSpec } from "./operation-spec.js";
import { writeErr } from "./output.js";
import { randomUuid } from "./random-uuid.js";
import type { RequestParts } from "./validate.js";

/** What a request needs from its operation; `dispatch api` builds one from its arguments. */
export type RequestTarget = Pick<OperationSpec, "method" | "path" | "bodyContentType">;

/** Pages `--paginate` follows at most, so a server repeating cursors cannot keep the CLI looping. */
const maxPages = 10_000;

/** Longest wait between retries the CLI accepts (a Retry-After above it is cut to it). */
const maxRetryDelayMs = 10_000;

/** Parses a text answer by its content type; Streamable HTTP (SSE) answers yield their last `data:` event. */
export function parseBody(text: unknown, contentType: string | null): unknown {
  if (typeof text !== "string" || text === "") return undefined;
  if (contentType?.includes("text/event-stream")) {
    const events = text.split("\n").filter((line) => line.startsWith("data:"));
    return events.length ? JSON.parse(events.at(-1)!.slice(5)) : undefined;
  }
  return contentType?.includes("json") ? JSON.parse(text) : text;
}

/** The body as sent: JSON, or a form for the token endpoint. */
function bodyText(spec: RequestTarget, body: Record<string, unknown> | undefined): string | undefined {
  if (body === undefined || !spec.bodyContentType) return undefined;
  if (spec.bodyContentType === "application/x-www-form-urlencoded")
    return new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
  return JSON.stringify(body);
}

/** The CLI's one line for an answer carrying `Deprecation` (once per process; the SDK keeps count). */
export function reportDeprecation(notice: DeprecationNotice): void {
  writeErr(`${formatDeprecationNotice(notice)}\n`);
}

const userAgent = (ctx: CliContext) => `dispatch-cli/${ctx.version} node/${process.versions.node}`;

/** The SDK client streams are read through: the CLI's auth, User-Agent and deprecation notice. */
export function clientFor(ctx: CliContext) {
  const { settings } = ctx;
  return createDispatchClient({
    baseUrl: settings["base-url"],
    apiKey: settings["api-key"],
    accessToken: settings.token,
    adminToken: settings["admin-token"],
    retry: ctx.retries > 0 ? { retries: ctx.retries, maxDelayMs: maxRetryDelayMs } : false,
    userAgent: userAgent(ctx),
    onDeprecation: reportDeprecation,
  });
}

/** The request as the SDK builds it: URL from the contract's path template, the body's content type, then the
 * command's headers, -H and header parameters (later ones win), the operation's credential, User-Agent and, for
 * createOrder, an Idempotency-Key. */
export function buildHttpRequest(
  spec: RequestTarget,
  parts: RequestParts,
  ctx: CliContext,
  extraHeaders: Record<string, string> = {},
): HttpRequest {
  const { settings } = ctx;
  const method = spec.method.toUpperCase();
  const url = createFinalURL(spec.path, {
    baseUrl: settings["base-url"].replace(/\/+$/, ""),
    params: { path: parts.path, query: parts.query },
    querySerializer: createQuerySerializer(),
    pathSerializer: defaultPathSerializer,
  });
  const body = bodyText(spec, parts.body);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = spec.bodyContentType!;
  for (const given of [extraHeaders, ctx.headers, parts.header])
    for (const [name, value] of Object.entries(given as Record<string, unknown>))
      if (value !== undefined && value !== null)
        headers[name.toLowerCase()] = typeof value === "string" ? value : JSON.stringify(value);
  const credentials = { apiKey: settings["api-key"], accessToken: settings.token, adminToken: settings["admin-token"] };
  const credential = credentialHeader(method, spec.path, credentials);
  if (credential) headers[credential[0]] = credential[1];
  headers["user-agent"] ??= userAgent(ctx);
  if (createsOrder(method, spec.path)) headers["idempotency-key"] ??= randomUuid();
  return { method, url, headers, ...(body !== undefined && { body }) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.min(maxRetryDelayMs, ms)));

/** Sends with `--retries`: 429 and 503 again after their Retry-After, and a network failure again where resending
 * is safe (a read, or a request the server deduplicates by Idempotency-Key), with the SDK's backoff. */
async function sendWithRetries(request: HttpRequest, ctx: CliContext): Promise<HttpAnswer> {
  const { sendHttp } = await import("./http.js");
  const { baseDelayMs } = retryDefaults;
  for (let n = 0; ; n++) {
    let answer: HttpAnswer;
    try {
      answer = await sendHttp(request);
    } catch (err) {
      if (n >= ctx.retries || !safeToResend(request.method, "idempotency-key" in request.headers))
        throw networkError(err, ctx.settings["base-url"]);
      await pause(baseDelayMs * 2 ** n);
      continue;
    }
    if (!isRetryableStatus(answer.status) || n >= ctx.retries) return answer;
    await pause(retryAfterMs(answer.headers.get("retry-after")) ?? baseDelayMs * 2 ** n);
  }
}

/** A failed answer's body: JSON when it parses, else its text. */
function errorBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One call of the contract's operation `operationId` with path parameters and a JSON body, for commands that call
 * operations of their own (trigger, listen): its method, path and body type are the generated command table's, so
 * no command restates them. */
export function callOperation(
  ctx: CliContext,
  operationId: keyof ContractOperations,
  path: Record<string, string>,
  body?: Record<string, unknown>,
): Promise<unknown> {
  const spec = operations.find((o) => o.operationId === operationId);
  if (!spec) throw new Error(`${operationId} is not in the generated command table`);
  return sendOperation(spec, { path, query: {}, header: {}, body }, ctx);
}

/**
 * Sends one request and returns its parsed body; with `--dry-run`, returns the curl command instead.
 * `onAnswer` sees a successful answer's headers (a replayed order says so).
 */
export async function sendOperation(
  spec: RequestTarget,
  parts: RequestParts,
  ctx: CliContext,
  extraHeaders: Record<string, string> = {},
  onAnswer?: (answer: HttpAnswer) => void,
  quiet = false,
): Promise<unknown> {
  const request = buildHttpRequest(spec, parts, ctx, extraHeaders);
  if (ctx.dryRun) return (await import("./curl.js")).toCurl(request, ctx.showSecrets);
  const answer = await sendWithRetries(request, ctx);
  noticeDeprecation(request.method, request.url, answer, quiet ? () => undefined : reportDeprecation);
  if (!answer.ok) throw apiFailure(answer, errorBody(answer.text));
  onAnswer?.(answer);
  return parseBody(answer.text, answer.headers.get("content-type"));
}

/** A GET of one concrete path (no dry run): the parsed body, or the same CliError any command raises. A command's
 * own request is quiet about deprecations: the fields it reads are current, so a notice would be about nothing the
 * person did. */
export function getPath(ctx: CliContext, path: string, query: Record<string, unknown> = {}): Promise<unknown> {
  return sendOperation(
    { method: "get", path, bodyContentType: null },
    { path: {}, query, header: {}, body: undefined },
    { ...ctx, dryRun: false },
    {},
    undefined,
    true,
  );
}

/** `--paginate`: follows `next_cursor` and returns every page's items as one array. */
export async function sendAllPages(spec: RequestTarget, parts: RequestParts, ctx: CliContext): Promise<unknown> {
  if (spec.method !== "get") throw usageError("--paginate works only with GET requests");
  const items: unknown[] = [];
  let cursor = parts.query.cursor as string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const query = { ...parts.query, ...(cursor ? { cursor } : {}) };
    const body = (await sendOperation(spec, { ...parts, query }, ctx)) as { items?: unknown; next_cursor?: unknown };
    if (ctx.dryRun) return body;
    if (!body || !Array.isArray(body.items))
      throw new CliError("--paginate: the answer has no `items` array to collect", ExitCode.unexpected);
    items.push(...(body.items as unknown[]));
    if (typeof body.next_cursor !== "string" || body.next_cursor === cursor) return items;
    cursor = body.next_cursor;
  }
  return items;
}
