import type { RouteFactory } from "../types.js";
import { DomainError } from "../../services/errors.js";
import { contractVersion } from "../../contract-version.js";

const route: RouteFactory = ({ db }) => ({
  method: "GET",
  path: "/readyz",
  options: { auth: false, tags: ["health"] },
  handler: async () => {
    try {
      await db.raw("select 1");
    } catch {
      throw new DomainError("unavailable", "not_ready", "The database is unreachable.", { retryAfterSeconds: 5 });
    }
    return { status: "ok", version: contractVersion, checks: { database: "ok" } };
  },
});
export default route;
