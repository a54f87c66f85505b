// A route of a contract operation: its handler gets the operation's validated payload, params and query typed
// from the contract, and answers with the operation's typed bodies per status.
import type { Lifecycle, Request, ResponseObject, ResponseToolkit, ServerRoute } from "@hapi/hapi";
import type { JsonStatus, OperationId, PathParams, ResponseBody, ValidBody, ValidQuery } from "../types/contract.js";

/** What the generated validators let through for the operation (defaults applied). */
export interface ContractInput<Op extends OperationId> {
  payload: ValidBody<Op>;
  params: PathParams<Op>;
  query: ValidQuery<Op>;
}

export interface ContractRoute<Op extends OperationId> extends Omit<ServerRoute, "handler"> {
  handler: (request: Request, h: ResponseToolkit, input: ContractInput<Op>) => Lifecycle.ReturnValue;
}

/** The one place the validated request is trusted to have the contract's shape: the route's `validate` (the
 * operation's generated validators) has checked it before the handler runs. */
export function contractRoute<Op extends OperationId>(_operationId: Op, route: ContractRoute<Op>): ServerRoute {
  return {
    ...route,
    handler: (request, h) => route.handler(request, h, request as unknown as ContractInput<Op>),
  };
}

/** A response of the operation with this status and its body as the contract types it. */
export function reply<Op extends OperationId, Status extends JsonStatus<Op> & number>(
  h: ResponseToolkit,
  _operationId: Op,
  status: Status,
  body: ResponseBody<Op, Status>,
): ResponseObject {
  return h.response(body as object).code(status);
}
