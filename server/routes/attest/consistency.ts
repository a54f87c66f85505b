import Joi from "joi";
import type { RouteFactory } from "../types.js";

const treeSize = Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required();

const route: RouteFactory = ({ auditLog }) => ({
  method: "GET",
  path: "/api/attest/consistency",
  options: {
    auth: false,
    tags: ["attest"],
    validate: { query: Joi.object({ first: treeSize, second: treeSize }) },
  },
  handler: (request) => auditLog.consistency(request.query.first as number, request.query.second as number),
});
export default route;
