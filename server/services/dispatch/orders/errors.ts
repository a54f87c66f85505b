// The order domain's errors that more than one operation raises.
import { DomainError } from "../../errors.js";

export const orderNotFound = (id: string) =>
  new DomainError("not_found", "not_found", `No order ${id} for this account.`);

/** A 422 naming the one field at fault. */
export const invalidField = (pointer: string, message: string) =>
  new DomainError("validation", "validation_failed", message, { errors: [{ pointer, message }] });

/** The sandbox acts on test data only: a live key may neither advance nor reset. */
export const liveKey = (message: string) => new DomainError("forbidden", "live_key", message);
