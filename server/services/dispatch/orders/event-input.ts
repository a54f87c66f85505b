// The body of a status change as every path gives it (recordOrderEvent's, with a cancel's who and why and the
// ETA's source), apart from the checks on it so that the ETA and NTE rules can read it.
import type { RequestBody, Schemas } from "../../../types/contract.js";

export type Cancellation = Schemas["Cancellation"];
/** recordOrderEvent's body, and what cancelling adds; `eta_source` says who gave `estimated_arrival_at`. */
export type OrderEventInput = RequestBody<"recordOrderEvent"> & {
  cancellation?: Omit<Cancellation, "at">;
  eta_source?: Schemas["Eta"]["source"];
};
