// MCP Streamable HTTP requires validating Origin (DNS rebinding): present and not allowed is a 403 problem.
// Routes opt in with `plugins: { checkOrigin: true }`; requests without Origin (non-browser clients) pass.
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import { DomainError } from "../services/errors.js";
import { baseUrlOf } from "./origin.js";

export interface OriginCheckOptions {
  /** Allowed origins; null means the public base URL's origin (or the request's own origin when that is unset). */
  allowedOrigins: string[] | null;
  publicBaseUrl: string | null;
}

function checkOrigin(options: OriginCheckOptions) {
  return (request: Request, h: ResponseToolkit) => {
    const origin: unknown = request.headers.origin;
    const wanted = request.route.settings.plugins?.checkOrigin;
    if (!wanted || typeof origin !== "string") return h.continue;
    const allowed = options.allowedOrigins ?? [new URL(baseUrlOf(request, options.publicBaseUrl)).origin];
    if (allowed.includes(origin)) return h.continue;
    throw new DomainError("forbidden", "origin_not_allowed", `Origin ${origin} is not allowed (MCP_ALLOWED_ORIGINS).`);
  };
}

declare module "@hapi/hapi" {
  interface PluginSpecificConfiguration {
    /** Refuse browser requests from origins not allowed (MCP_ALLOWED_ORIGINS). */
    checkOrigin?: boolean;
  }
}

export const originCheckPlugin: Plugin<OriginCheckOptions> = {
  name: "dispatch-origin-check",
  register(server, options) {
    server.ext("onPreAuth", checkOrigin(options));
  },
};
