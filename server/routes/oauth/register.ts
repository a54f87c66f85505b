import Joi from "joi";
import { OAuthError } from "../../services/errors.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ oauth }) => ({
  method: "POST",
  path: "/api/mcp/oauth/register",
  options: {
    auth: false,
    tags: ["oauth"],
    payload: {
      failAction: () => {
        throw new OAuthError(400, "invalid_client_metadata", "The body must be a JSON object.");
      },
    },
    validate: {
      payload: Joi.object({
        client_name: Joi.string().max(200),
        grant_types: Joi.array().items(Joi.string()),
        scope: Joi.string().max(200),
      }).allow(null),
      failAction: (_r, _h, err) => {
        throw new OAuthError(400, "invalid_client_metadata", err!.message);
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
