import { validators } from "../../generated/validators.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ auditLog }) => ({
  method: "GET",
  path: "/api/attest/consistency",
  options: { auth: false, tags: ["attest"], validate: validators.getConsistencyProof },
  handler: (request) => auditLog.consistency(request.query.first as number, request.query.second as number),
});
export default route;
