// HTTP hygiene on every answer: nosniff; no-store on anything a credential or secret travels with; CORS open
// only for the public read-only documents (keyed endpoints send no CORS headers, so browsers keep them same-origin).
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";

/** Route tags whose GET answers are public documents any web page may read. */
const corsOpenTags = new Set(["discovery", "docs", "evals", "index", "health"]);
/** Route tags whose answers carry secrets (keys, tokens, client and webhook secrets). */
const secretTags = new Set(["admin", "oauth"]);

function headersFor(request: Request): Record<string, string> {
  const headers: Record<string, string> = { "x-content-type-options": "nosniff" };
  const tags = request.route.settings.tags ?? [];
  const credentialed = Boolean(request.headers["x-api-key"] || request.headers.authorization);
  if (credentialed || tags.some((tag) => secretTags.has(tag))) headers["cache-control"] = "no-store";
  if (request.method === "get" && tags.some((tag) => corsOpenTags.has(tag)))
    headers["access-control-allow-origin"] = "*";
  return headers;
}

export const securityHeadersPlugin: Plugin<void> = {
  name: "dispatch-security-headers",
  register(server) {
    server.ext("onPreResponse", (request: Request, h: ResponseToolkit) => {
      const response = request.response;
      const headers = headersFor(request);
      if (Boom.isBoom(response)) {
        Object.assign(response.output.headers, headers);
        return h.continue;
      }
      for (const [name, value] of Object.entries(headers))
        if (name !== "cache-control" || !response.headers["cache-control"]) response.header(name, value);
      return h.continue;
    });
  },
};
