import { validators } from "../../generated/validators.js";
import { principalOf } from "../../plugins/auth.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ quotes }) => ({
  method: "POST",
  path: "/api/dispatch/v1/quote",
  options: {
    tags: ["quote"],
    auth: { strategies: ["api-key", "oauth-token"] },
    validate: validators.createQuote,
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
