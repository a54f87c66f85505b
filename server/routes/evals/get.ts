import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";
import { contractRoute } from "../contract-route.js";

const route: RouteFactory = ({ evals }) =>
  contractRoute("getEvals", {
    method: "GET",
    path: "/api/dispatch/analytics/evals",
    options: {
      auth: false,
      tags: ["evals"],
      plugins: { rateLimit: "none" },
      validate: validators.getEvals,
    },
    handler: (_request, _h, { query }) => evals.document(query.period),
  });
export default route;
