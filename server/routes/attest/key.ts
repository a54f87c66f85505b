import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ auditLog }) => ({
  method: "GET",
  path: "/api/attest/key",
  options: { auth: false, tags: ["attest"] },
  handler: async (_request, h) => h.response(await auditLog.verifierKey()).type("text/plain; charset=utf-8"),
});
export default route;
