import Joi from "joi";
import { isParseError } from "../../plugins/errors.js";
import { OAuthError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

const text = Joi.string().max(200);

// RFC 7591 §2: known metadata is bounded; anything else is ignored (stripped), not rejected.
const metadata = Joi.object({
  client_name: text,
  grant_types: Joi.array().items(text).max(10),
  scope: text,
  token_endpoint_auth_method: Joi.string().valid("client_secret_basic", "client_secret_post"),
  response_types: Joi.array().items(text).max(10),
  software_id: text,
  software_version: text,
  client_uri: Joi.string()
    .uri({ scheme: ["http", "https"] })
    .max(2048),
  contacts: Joi.array().items(Joi.string().max(254)).max(10),
})
  .unknown(true)
  .allow(null);

const route: RouteFactory = ({ oauth }) => ({
  method: "POST",
  path: "/api/mcp/oauth/register",
  options: {
    auth: false,
    tags: ["oauth"],
    payload: {
      failAction: (_request, _h, error) => {
        if (!isParseError(error)) throw error;
        throw new OAuthError(400, "invalid_client_metadata", "The body must be a JSON object.");
      },
    },
    validate: {
      payload: metadata,
      options: { stripUnknown: true },
      failAction: (_r, _h, err) => {
        throw new OAuthError(400, "invalid_client_metadata", (err as Error).message);
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
