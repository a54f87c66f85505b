import Joi from "joi";
import { evalPeriods, type EvalPeriod } from "../../services/dispatch/evals.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ evals }) => ({
  method: "GET",
  path: "/api/dispatch/analytics/evals",
  options: {
    auth: false,
    tags: ["evals"],
    plugins: { rateLimit: "none" },
    validate: {
      query: Joi.object({
        period: Joi.string()
          .valid(...Object.keys(evalPeriods))
          .default("rolling_30d"),
      }),
    },
  },
  handler: (request) => evals.document((request.query as { period: EvalPeriod }).period),
});
export default route;
