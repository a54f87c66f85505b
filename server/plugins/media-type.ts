// Bodies without a usable declared type are read as JSON: fetch labels a string body text/plain, and
// generated clients (kubb's default) send JSON that way. Anything else a route does not accept is a 415 problem.
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";

const json = "application/json";

function acceptsJson(request: Request): boolean {
  const allow = request.route.settings.payload?.allow;
  if (allow === undefined) return true;
  return (Array.isArray(allow) ? allow : [allow]).includes(json);
}

function relabelPlainText(request: Request, h: ResponseToolkit) {
  const declared: unknown = request.headers["content-type"];
  const plain = typeof declared !== "string" || /^text\/plain\s*(;|$)/i.test(declared);
  if (plain && acceptsJson(request)) request.headers["content-type"] = json;
  return h.continue;
}

export const mediaTypePlugin: Plugin<void> = {
  name: "dispatch-media-type",
  register(server) {
    server.ext("onPreAuth", relabelPlainText);
  },
};
