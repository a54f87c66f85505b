import { validators } from "../../generated/validators.js";
import { keyTenantOf } from "../../plugins/auth.js";
import type { AuditRecordQuery } from "../../services/audit/records.js";
import type { RouteFactory } from "../types.js";

const route: RouteFactory = ({ auditRecords }) => ({
  method: "GET",
  path: "/api/audit/v1/records",
  options: {
    auth: "api-key",
    tags: ["audit"],
    validate: validators.listAuditRecords,
  },
  handler: (request) => {
    return auditRecords.list(keyTenantOf(request), request.query as unknown as AuditRecordQuery);
  },
});
export default route;
