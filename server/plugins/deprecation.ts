// Tells callers what they touch is deprecated, from the contract's marks (server/generated/deprecations.ts):
// `Deprecation: @<unix seconds>` (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and a `rel="deprecation"` Link to
// the operation's documentation. Sent on every answer of a deprecated operation; for a deprecated parameter or
// request field only when the request used it; for a deprecated response field on every 2xx answer (the field
// is in it). With several items, the earliest deprecation and sunset are sent.
import type { Plugin, Request, ResponseObject, ResponseToolkit } from "@hapi/hapi";
import { operationDeprecations, type DeprecatedItem, type OperationDeprecations } from "../generated/deprecations.js";

/** Whether a JSON pointer (`*` matching any array index) names a value present in `value`. */
function hasPointer(value: unknown, segments: string[]): boolean {
  if (!segments.length) return value !== undefined;
  if (value === null || typeof value !== "object") return false;
  const [head, ...rest] = segments;
  if (head === "*") return Array.isArray(value) && value.some((v) => hasPointer(v, rest));
  return hasPointer((value as Record<string, unknown>)[head], rest);
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

export const deprecationPlugin: Plugin<void> = {
  name: "dispatch-deprecation",
  register(server) {
    server.ext("onPreResponse", (request: Request, h: ResponseToolkit) => {
      const response = request.response;
      const boom = "isBoom" in response && response.isBoom;
      const status = boom ? response.output.statusCode : (response as ResponseObject).statusCode;
      const headers = deprecationHeaders(request, status);
      if (!headers) return h.continue;
      const current = boom ? response.output.headers : (response as ResponseObject).headers;
      const existing = current.link as string | undefined;
      const link = existing ? `${existing}, ${headers.link}` : headers.link;
      if (boom) Object.assign(response.output.headers, { ...headers, link });
      else {
        const out = response as ResponseObject;
        out.header("deprecation", headers.deprecation).header("sunset", headers.sunset).header("link", link);
      }
      return h.continue;
    });
  },
};
