import { validators } from "../../generated/validators.js";
import { isParseError } from "../../plugins/errors.js";
import { declaresBody } from "../../plugins/validation.js";
import { OAuthError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";
import { operationRoute, reply } from "../operation-route.js";

const metadata = validators.registerOAuthClient.payload;

const route: RouteFactory = ({ oauth }) =>
  operationRoute("registerOAuthClient", {
    options: {
      plugins: { rateLimit: "oauth-register" },
      payload: {
        failAction: (_request, _h, error) => {
          if (!isParseError(error)) throw error!; // Hapi always passes the error to failAction
          throw new OAuthError("invalid_client_metadata", "The body must be a JSON object.");
        },
      },
    },
    // RFC 7591 §3.2.2 answers bad metadata invalid_client_metadata (not the generic 422).
    validate: {
      // No body is Hapi's null and registers with defaults; a body that is JSON `null` is no client metadata.
      payload: (value: unknown, options) => {
        if (value !== null) return metadata.validateAsync(value, options);
        const { headers } = (options.context ?? {}) as { headers?: Record<string, string | undefined> };
        if (declaresBody(headers)) throw new Error("The body must be a JSON object.");
        return Promise.resolve(undefined);
      },
      options: { stripUnknown: true },
      failAction: (_r, _h, err) => {
        throw new OAuthError("invalid_client_metadata", err!.message);
      },
    },
    handler: async (_request, h, { payload }) =>
      reply(h, "registerOAuthClient", 201, await oauth.register(payload ?? {})).header("cache-control", "no-store"),
  });
export default route;
