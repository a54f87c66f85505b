import { validators } from "../../generated/validators.js";
import type { EvalPeriod } from "../../services/dispatch/evals.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ evals }) => ({
  method: "GET",
  path: "/api/dispatch/analytics/evals",
  options: {
    auth: false,
    tags: ["evals"],
    plugins: { rateLimit: "none" },
    validate: validators.getEvals,
  },
  handler: (request) => evals.document((request.query as { period: EvalPeriod }).period),
});
export default route;
