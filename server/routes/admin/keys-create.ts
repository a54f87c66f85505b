import Joi from "joi";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ keys }) => ({
  method: "POST",
  path: "/api/admin/v1/keys",
  options: {
    auth: "admin",
    tags: ["admin"],
    plugins: { rateLimit: "none" },
    validate: {
      payload: Joi.object({
        account: Joi.string()
          .min(1)
          .max(100)
          .pattern(/^[a-z0-9][a-z0-9._-]*$/)
          .required(),
        environment: Joi.string().valid("test", "live").required(),
        label: Joi.string().max(200),
        scopes: Joi.array().items(Joi.string().valid("quote", "order")).min(1).unique(),
      }),
    },
  },
  handler: async (request, h) =>
    h
      .response(await keys.issue(request.payload as Parameters<typeof keys.issue>[0]))
      .code(201)
      .header("cache-control", "no-store"),
});
export default route;
