import { validators } from "../../generated/validators.js";
import { isParseError } from "../../plugins/errors.js";
import { OAuthError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ oauth }) => ({
  method: "POST",
  path: "/api/mcp/oauth/register",
  options: {
    auth: false,
    tags: ["oauth"],
    plugins: { rateLimit: "oauth-register" },
    payload: {
      failAction: (_request, _h, error) => {
        if (!isParseError(error)) throw error!; // Hapi always passes the error to failAction
        throw new OAuthError("invalid_client_metadata", "The body must be a JSON object.");
      },
    },
    validate: {
      payload: validators.registerOAuthClient.payload.allow(null),
      options: { stripUnknown: true },
      failAction: (_r, _h, err) => {
        throw new OAuthError("invalid_client_metadata", err!.message);
      },
    },
  },
  handler: async (request, h) =>
    h
      .response(await oauth.register((request.payload ?? {}) as Parameters<typeof oauth.register>[0]))
      .code(201)
      .header("cache-control", "no-store"),
});
export default route;
