// Tells callers what they touch is deprecated, from the contract's marks (server/generated/deprecations.ts):
// `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and a `rel="deprecation"` Link to
// the operation's documentation. Sent on every answer of a deprecated operation; for a deprecated parameter or
// request field only when the request used it; for a deprecated response field on every 2xx answer (the field
// is in it). With several items, the earliest deprecation and sunset are sent.
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import { isRecord } from "../services/shared/is-record.js";
import { operationDeprecations, type DeprecatedItem, type OperationDeprecations } from "../generated/deprecations.js";

/** Whether a JSON pointer (`*` matching any array index) names a value present in `value`. */
function hasPointer(value: unknown, segments: string[]): boolean {
  if (!segments.length) return value !== undefined;
  const [head, ...rest] = segments;
  if (Array.isArray(value)) return head === "*" && value.some((v: unknown) => hasPointer(v, rest));
  return isRecord(value) && head !== "*" && hasPointer(value[head], rest);
}

function usedParameter(request: Request, p: { in: string; name: string }): boolean {
  if (p.in === "query") return request.query[p.name] !== undefined;
  if (p.in === "header") return request.headers[p.name.toLowerCase()] !== undefined;
  return p.in === "path";
}

function itemsFor(entry: OperationDeprecations, request: Request, status: number): DeprecatedItem[] {
  return [
    ...(entry.operation ? [entry.operation] : []),
    ...entry.parameters.filter((p) => usedParameter(request, p)),
    ...entry.requestFields.filter((f) => hasPointer(request.payload, f.pointer.split("/").slice(1))),
    ...(status >= 200 && status < 300 ? entry.responseFields : []),
  ];
}

export function deprecationHeaders(request: Request, status: number): Record<string, string> | null {
  const entry = operationDeprecations[`${request.route.method.toUpperCase()} ${request.route.path}`];
  const items = entry ? itemsFor(entry, request, status) : [];
  if (!entry || !items.length) return null;
  const since = Math.min(...items.map((i) => i.since));
  const sunset = Math.min(...items.map((i) => i.sunset));
  return {
    deprecation: `@${since}`,
    sunset: new Date(sunset * 1000).toUTCString(),
    link: `</docs#operation/${entry.operationId}>; rel="deprecation"; type="text/html"`,
  };
}

/** The headers with an existing Link header kept in front of the deprecation link. */
function withLink(headers: Record<string, string> | null, existing: unknown): Record<string, string> | null {
  if (!headers || typeof existing !== "string" || !existing) return headers;
  return { ...headers, link: `${existing}, ${headers.link}` };
}

export const deprecationPlugin: Plugin<void> = {
  name: "dispatch-deprecation",
  register(server) {
    server.ext("onPreResponse", (request: Request, h: ResponseToolkit) => {
      const response = request.response;
      if (Boom.isBoom(response)) {
        const headers = withLink(deprecationHeaders(request, response.output.statusCode), response.output.headers.link);
        if (headers) Object.assign(response.output.headers, headers);
      } else {
        const headers = withLink(deprecationHeaders(request, response.statusCode), response.headers.link);
        for (const [name, value] of Object.entries(headers ?? {})) response.header(name, value);
      }
      return h.continue;
    });
  },
};
