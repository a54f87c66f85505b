// Every order creation (createOrder) carries an Idempotency-Key, so a retried or repeated send cannot order twice.
import type { Middleware } from "openapi-fetch";
import { operationIds, type OperationId } from "./generated/auth.js";

/** The operationId of `METHOD schemaPath` (typed, so comparing with an operationId not in the contract fails). */
const operationIdOf: Readonly<Record<string, OperationId | undefined>> = operationIds;

/** Whether `METHOD schemaPath` (the contract's path template) creates an order, and so needs an Idempotency-Key. */
export const createsOrder = (method: string, schemaPath: string): boolean =>
  operationIdOf[`${method.toUpperCase()} ${schemaPath}`] === "createOrder";

/** Sets the key once, before any retry, so each retry of the same call resends the same one. */
export const idempotencyMiddleware: Middleware = {
  onRequest({ request, schemaPath }) {
    if (createsOrder(request.method, schemaPath) && !request.headers.has("idempotency-key"))
      request.headers.set("idempotency-key", globalThis.crypto.randomUUID());
    return request;
  },
};
