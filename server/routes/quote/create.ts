import Joi from "joi";
import { principalOf } from "../../plugins/auth.js";
import { quoteLocation, trade, urgency } from "../schemas.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ quotes }) => ({
  method: "POST",
  path: "/api/dispatch/v1/quote",
  options: {
    tags: ["quote"],
    auth: { strategies: ["api-key", "oauth-token"] },
    validate: {
      payload: Joi.object({
        trade: trade.required(),
        location: quoteLocation.required(),
        urgency,
        nte_cents: Joi.number().integer().min(1),
        description: Joi.string().max(2000).allow(""),
      }),
    },
  },
  handler: (request) => {
    const principal = principalOf(request);
    return quotes.create(
      { id: principal.id, account: principal.kind === "key" ? principal.account : null },
      request.payload as Parameters<typeof quotes.create>[1],
    );
  },
});
export default route;
