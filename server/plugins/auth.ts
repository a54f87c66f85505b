// Auth strategies: `api-key` (x-api-key), `oauth-token` (Authorization: Bearer <ACCESS_TOKEN>), `admin`.
import { timingSafeEqual } from "node:crypto";
import Boom from "@hapi/boom";
import type { Plugin, Request, ResponseToolkit, Server } from "@hapi/hapi";
import { DomainError } from "../services/errors.js";
import type { Services } from "../services/index.js";
import { looksLikeApiKey } from "../services/access/keys.js";

/** What a route sees in request.auth.credentials. */
export type Principal =
  | { kind: "key"; id: string; account: string; scopes: string[] }
  | { kind: "oauth"; id: string; clientId: string; scopes: string[] }
  | { kind: "admin"; id: "admin" };

declare module "@hapi/hapi" {
  interface UserCredentials {
    principal: Principal;
  }
}

const realm = { realm: "dispatch" };

const headerText = (value: unknown): string => (typeof value === "string" ? value : "");

function bearerOf(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerText(request.headers.authorization));
  return match ? match[1] : null;
}

async function principalFor(services: Services, secret: string): Promise<Principal | null> {
  const key = await services.keys.authenticate(secret);
  if (key) return { kind: "key", id: key.id, account: key.account, scopes: key.scopes };
  const token = await services.oauth.verifyToken(secret);
  return token ? { kind: "oauth", id: `oauth:${token.clientId}`, clientId: token.clientId, scopes: ["quote"] } : null;
}

function apiKeyScheme(services: Services) {
  return () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const presented = request.headers["x-api-key"] as string | undefined;
      if (!presented) throw Boom.unauthorized(null, "ApiKey", { ...realm, header: "x-api-key" });
      const principal = await principalFor(services, presented);
      if (!principal) throw Boom.unauthorized("Invalid or revoked API key.", "ApiKey", realm);
      return h.authenticated({ credentials: { principal } });
    },
  });
}

function oauthTokenScheme(services: Services) {
  return () => ({
    async authenticate(request: Request, h: ResponseToolkit) {
      const token = bearerOf(request);
      if (!token) throw Boom.unauthorized(null, "Bearer", realm);
      if (looksLikeApiKey(token)) {
        throw Boom.unauthorized(
          "API keys are not accepted as Bearer here: send them in x-api-key (Bearer keys are for the MCP endpoint only).",
          "Bearer",
          realm,
        );
      }
      const verified = await services.oauth.verifyToken(token);
      if (!verified) throw Boom.unauthorized("Invalid or expired access token.", "Bearer", realm);
      return h.authenticated({
        credentials: {
          principal: {
            kind: "oauth",
            id: `oauth:${verified.clientId}`,
            clientId: verified.clientId,
            scopes: ["quote"],
          },
        },
      });
    },
  });
}

function adminScheme(adminToken: string | null) {
  return () => ({
    authenticate(request: Request, h: ResponseToolkit) {
      if (!adminToken)
        throw new DomainError(
          "unavailable",
          "admin_disabled",
          "The admin area is disabled; set DISPATCH_ADMIN_TOKEN to enable it.",
        );
      const token = bearerOf(request);
      if (!token) throw Boom.unauthorized(null, "Bearer", { realm: "dispatch-admin" });
      const a = Buffer.from(token);
      const b = Buffer.from(adminToken);
      if (a.length !== b.length || !timingSafeEqual(a, b))
        throw Boom.unauthorized("Wrong admin token.", "Bearer", { realm: "dispatch-admin" });
      return h.authenticated({ credentials: { principal: { kind: "admin", id: "admin" } } });
    },
  });
}

export const authPlugin: Plugin<{ services: Services }> = {
  name: "dispatch-auth",
  register(server: Server, { services }) {
    server.auth.scheme("api-key", apiKeyScheme(services));
    server.auth.scheme("oauth-token", oauthTokenScheme(services));
    server.auth.scheme("admin", adminScheme(services.config.adminToken));
    server.auth.strategy("api-key", "api-key");
    server.auth.strategy("oauth-token", "oauth-token");
    server.auth.strategy("admin", "admin");
  },
};

export function principalOf(request: Request): Principal {
  return (request.auth.credentials as { principal: Principal }).principal;
}
