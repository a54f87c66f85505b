// Sends one operation through the SDK and turns the answer into data or a CliError.
import { createDispatchClient, formatDeprecationNotice, type DeprecationNotice } from "../sdk/index.js";
import { apiFailure } from "./api-failure.js";
import type { CliContext } from "./context.js";
import { CliError, ExitCode, networkError, usageError } from "./errors.js";
import type { operations as ContractOperations } from "../sdk/generated/openapi.js";
import { operations } from "./generated/operations.js";
import type { OperationSpec } from "./operation-spec.js";
import { writeErr } from "./output.js";
import type { RequestParts } from "./validate.js";

/** What a request needs from its operation; `dispatch api` builds one from its arguments. */
export type RequestTarget = Pick<OperationSpec, "method" | "path" | "bodyContentType">;

/** Pages `--paginate` follows at most, so a server repeating cursors cannot keep the CLI looping. */
const maxPages = 10_000;

type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Parses a text answer by its content type; Streamable HTTP (SSE) answers yield their last `data:` event. */
export function parseBody(text: unknown, contentType: string | null): unknown {
  if (typeof text !== "string" || text === "") return undefined;
  if (contentType?.includes("text/event-stream")) {
    const events = text.split("\n").filter((line) => line.startsWith("data:"));
    return events.length ? JSON.parse(events.at(-1)!.slice(5)) : undefined;
  }
  return contentType?.includes("json") ? JSON.parse(text) : text;
}

function bodyInit(spec: RequestTarget, body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (body === undefined || !spec.bodyContentType) return {};
  if (spec.bodyContentType === "application/x-www-form-urlencoded") {
    const form = (b: Record<string, unknown>) =>
      new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)])).toString();
    return { body, bodySerializer: form, headers: { "content-type": spec.bodyContentType } };
  }
  return { body };
}

/** The CLI's one line for an answer carrying `Deprecation` (once per process; the SDK keeps count). */
export function reportDeprecation(notice: DeprecationNotice): void {
  writeErr(`${formatDeprecationNotice(notice)}\n`);
}

/** A fetch that records the request instead of sending it (`--dry-run`). */
function captureFetch(sink: { request?: Request }): typeof fetch {
  return (input, init) => {
    sink.request = new Request(input, init);
    return Promise.resolve(new Response(null, { status: 204 }));
  };
}

/** The SDK client every command sends through: the CLI's auth, User-Agent, retries and deprecation notice. */
export function clientFor(ctx: CliContext, fetch?: typeof globalThis.fetch, quiet = false) {
  const { settings } = ctx;
  return createDispatchClient({
    baseUrl: settings["base-url"],
    apiKey: settings["api-key"],
    accessToken: settings.token,
    adminToken: settings["admin-token"],
    fetch,
    retry: ctx.retries > 0 && !fetch ? { retries: ctx.retries, maxDelayMs: 10_000 } : false,
    userAgent: `dispatch-cli/${ctx.version} node/${process.versions.node}`,
    onDeprecation: quiet ? () => undefined : reportDeprecation,
  });
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
  onAnswer?: (response: Response) => void,
  quiet = false,
): Promise<unknown> {
  const sink: { request?: Request } = {};
  const client = clientFor(ctx, ctx.dryRun ? captureFetch(sink) : undefined, quiet);
  const init = bodyInit(spec, parts.body);
  const headers = { ...(init.headers as Record<string, string> | undefined), ...extraHeaders, ...ctx.headers };
  const params = { path: parts.path, query: parts.query, header: parts.header };
  let result;
  try {
    result = await (client.request as unknown as LooseRequest)(spec.method.toUpperCase(), spec.path, {
      ...init,
      params,
      headers,
      parseAs: "text",
    });
  } catch (err) {
    throw networkError(err, ctx.settings["base-url"]);
  }
  if (sink.request) return (await import("./curl.js")).toCurl(sink.request, ctx.showSecrets);
  const { data, error, response } = result;
  if (!response.ok) throw apiFailure(response, error);
  onAnswer?.(response);
  return parseBody(data, response.headers.get("content-type"));
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
