// Whether dispatch (quote/order) is configured on this server: not disabled and a contractor pool exists.
import type { Config } from "../../config.js";
import type { ContractorService } from "./contractors.js";
import { DomainError } from "../errors.js";

export async function assertDispatchConfigured(
  config: Pick<Config, "dispatchDisabled">,
  contractors: ContractorService,
): Promise<void> {
  if (config.dispatchDisabled) {
    throw new DomainError(
      "unavailable",
      "dispatch_unavailable",
      "Dispatch is disabled on this server (DISPATCH_DISABLED=true).",
      { retryAfterSeconds: 300 },
    );
  }
  if (!(await contractors.hasActive())) {
    throw new DomainError(
      "unavailable",
      "dispatch_unavailable",
      "Dispatch is not configured on this server: the contractor pool is empty.",
      { retryAfterSeconds: 300 },
    );
  }
}
