// Wrong client secrets at the token endpoint count like other failed credentials (credential-throttle.ts): per
// (client address, client_id), and toward the address's cap. Over budget, the answer is a 429 `slow_down` in
// the endpoint's RFC 6749 shape with Retry-After, before the client is looked up. A route opts in by naming how
// to read the client id: `plugins: { oauthClient: (request) => clientId | null }`.
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit } from "@hapi/hapi";
import { OAuthError, type DomainError } from "../services/errors.js";
import { clientBucketOf } from "./client-ip.js";
import { admission, failure, success, type Presented } from "./credential-throttle.js";
import type { Limiters } from "./limiters.js";

const name = "dispatch-oauth-client-throttle";
type ClientIdOf = (request: Request) => string | null | undefined;

const slowDown = (limited: DomainError) =>
  new OAuthError("slow_down", limited.message, limited.extra.retryAfterSeconds);

const isInvalidClient = (response: unknown) =>
  Boom.isBoom(response) && response instanceof OAuthError && response.error === "invalid_client";

export const oauthClientThrottlePlugin: Plugin<{ limiters: Limiters; trustedProxies: readonly string[] }> = {
  name,
  register(server, { limiters, trustedProxies }) {
    server.ext("onPreHandler", async (request: Request, h: ResponseToolkit) => {
      const clientIdOf = request.route.settings.plugins?.oauthClient;
      const clientId = clientIdOf?.(request);
      if (!clientId) return h.continue;
      const address = clientBucketOf(request, trustedProxies);
      const presented = { address, credential: `oauth-client:${clientId}`, rememberable: true };
      request.plugins[name] = presented;
      const refusal = await admission(limiters, presented);
      if (refusal) throw slowDown(refusal);
      return h.continue;
    });

    // Before the errors plugin turns the OAuthError into its body, so the failure is still recognisable.
    server.ext(
      "onPreResponse",
      async (request: Request, h: ResponseToolkit) => {
        const presented = request.plugins[name];
        if (!presented) return h.continue;
        if (isInvalidClient(request.response)) {
          const limited = await failure(limiters, presented);
          if (limited) throw slowDown(limited);
        } else if (!Boom.isBoom(request.response) && request.response.statusCode === 200)
          await success(limiters, presented);
        return h.continue;
      },
      { before: ["dispatch-errors"] },
    );
  },
};

declare module "@hapi/hapi" {
  interface PluginSpecificConfiguration {
    /** How the token route reads the client id a request names (null: none). */
    oauthClient?: ClientIdOf;
  }
  interface PluginsStates {
    "dispatch-oauth-client-throttle"?: Presented;
  }
}
