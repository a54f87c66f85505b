// The entitlement error of order creation (spec §2.2): one body for REST's 402 and MCP's -32002.
import { EntitlementError } from "../errors.js";
import type { Caller } from "../access/principal.js";

export function notEntitledToOrder(caller: Caller, provisioningContact: string): EntitlementError {
  return new EntitlementError({
    error: "payment_required",
    message:
      caller.kind === "key"
        ? "This key was issued without the order scope."
        : "This credential can quote but is not entitled to create orders.",
    entitled_credential: "A provisioned integration key (x-api-key) with the order scope.",
    provisioning_contact: provisioningContact,
    free_alternatives: [
      "dispatch.quote",
      "dispatch.estimate",
      "dispatch.index",
      "dispatch.evals",
      "agentic.readiness_probe",
    ],
  });
}
