// Sends one operation through the SDK and turns the answer into data or a CliError.
import { createApiError, createDispatchClient } from "../sdk/index.js";
import type { CliContext } from "./context.js";
import { CliError, exitCodeForStatus, networkError } from "./errors.js";
import type { OperationSpec } from "./operation-spec.js";
import type { RequestParts } from "./validate.js";

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

function bodyInit(spec: OperationSpec, body: Record<string, unknown> | undefined): Record<string, unknown> {
  if (body === undefined || !spec.bodyContentType) return {};
  if (spec.bodyContentType === "application/x-www-form-urlencoded") {
    const form = (b: Record<string, unknown>) =>
      new URLSearchParams(Object.entries(b).map(([k, v]) => [k, String(v)])).toString();
    return { body, bodySerializer: form, headers: { "content-type": spec.bodyContentType } };
  }
  return { body };
}

function apiFailure(response: Response, error: unknown): CliError {
  const err = createApiError(response, error);
  const suffix = err.requestId ? ` (request ${err.requestId})` : "";
  const api = { status: err.status, type: err.type, code: err.code, requestId: err.requestId, body: err.body };
  return new CliError(`${err.message}${suffix}`, exitCodeForStatus(err.status), api);
}

export async function sendOperation(
  spec: OperationSpec,
  parts: RequestParts,
  ctx: CliContext,
  extraHeaders: Record<string, string> = {},
): Promise<unknown> {
  const { settings } = ctx;
  const client = createDispatchClient({
    baseUrl: settings["base-url"],
    apiKey: settings["api-key"],
    accessToken: settings.token,
    adminToken: settings["admin-token"],
    retry: ctx.retries > 0 ? { retries: ctx.retries, maxDelayMs: 10_000 } : false,
    userAgent: `dispatch-cli/${ctx.version} node/${process.versions.node}`,
  });
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
    throw networkError(err, settings["base-url"]);
  }
  const { data, error, response } = result;
  if (!response.ok) throw apiFailure(response, error);
  return parseBody(data, response.headers.get("content-type"));
}
