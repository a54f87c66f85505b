// Who owns data, the key every query and cache entry carries; here so audit and access share it without a cycle.
import type { Schemas } from "../../types/contract.js";

export type Environment = Schemas["ApiKeyEnvironment"];
/** Who owns data: an account in one environment. Test and live of one account share nothing. */
export interface Tenant {
  account: string;
  environment: Environment;
}
