import Joi from "joi";
import { estimate } from "../../services/dispatch/pricing.js";
import { quoteLocation, trade, urgency } from "../schemas.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = () => ({
  method: "POST",
  path: "/api/dispatch/v1/estimate",
  options: {
    auth: false,
    tags: ["estimate"],
    validate: { payload: Joi.object({ trade: trade.required(), location: quoteLocation.required(), urgency }) },
  },
  handler: (request) => estimate(request.payload as Parameters<typeof estimate>[0]),
});
export default route;
