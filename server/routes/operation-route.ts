// A route is an operation of the contract, named by its operationId: method, path, tags and auth come from the
// operation table (server/generated/operations.ts, generated from openapi.yaml), and the validators from the
// operation's generated joi schemas, so a route file holds only what the contract cannot say: its handler and,
// rarely, a route option (rate-limit policy, payload parsing). The route's Hapi id is the operationId: the access
// check (plugins/access.ts) finds the operation's security requirement by it.
import type {
  Lifecycle,
  Request,
  ResponseObject,
  ResponseToolkit,
  RouteOptions,
  RouteOptionsValidate,
  ServerRoute,
} from "@hapi/hapi";
import { operations, type Operation, type SecurityScheme } from "../generated/operations.js";
import { validators } from "../generated/validators.js";
import type { JsonStatus, OperationId, PathParams, ResponseBody, ValidBody, ValidQuery } from "../types/contract.js";

/** What the generated validators let through for the operation (defaults applied). */
export interface ContractInput<Op extends OperationId> {
  payload: ValidBody<Op>;
  params: PathParams<Op>;
  query: ValidQuery<Op>;
}

/** Route options a route may add; method, path, id, tags, auth and validate are the contract's. */
export type ExtraOptions = Omit<RouteOptions, "id" | "tags" | "auth" | "validate">;

export interface OperationRoute<Op extends OperationId> {
  options?: ExtraOptions;
  /** Overrides the auth derived from the security requirement; only where a strategy differs from the schemes'
   * (the route file says why). */
  auth?: RouteOptions["auth"];
  /** Overrides the operation's generated validators, for a route whose contract answers a failure its own way
   * (OAuth errors, 400 invalid_url): built from the same validators. null: the handler validates (JSON-RPC
   * endpoints answer a bad message with their protocol's error codes, never the generic 422). */
  validate?: RouteOptionsValidate | null;
  handler: (request: Request, h: ResponseToolkit, input: ContractInput<Op>) => Lifecycle.ReturnValue;
}

/** The Hapi strategy that checks each security scheme (plugins/auth.ts); null: the handler checks it (the OAuth
 * token endpoint authenticates its client itself, as RFC 6749 §2.3 lets a client send credentials in the body). */
const strategyOf: Record<SecurityScheme, string | null> = {
  ApiKey: "api-key",
  OAuthToken: "oauth-token",
  AdminToken: "admin",
  McpBearerKey: "mcp",
  OAuthClientBasic: null,
};

/** Hapi auth for an operation's security requirement: none, its schemes' strategies, optional when anonymous
 * callers are allowed too. */
export function authOf(operation: Operation): RouteOptions["auth"] {
  const strategies = Object.keys(operation.schemes)
    .map((scheme) => strategyOf[scheme as SecurityScheme])
    .filter((strategy) => strategy !== null);
  if (!strategies.length) return false;
  return operation.anonymous ? { strategies, mode: "optional" } : { strategies };
}

const validatorsOf = validators as Partial<Record<OperationId, RouteOptionsValidate>>;

/** The one place the validated request is trusted to have the contract's shape: the route's `validate` (the
 * operation's generated validators) has checked it before the handler runs. */
export function operationRoute<Op extends OperationId>(operationId: Op, route: OperationRoute<Op>): ServerRoute {
  const operation: Operation = operations[operationId];
  const validate = route.validate === null ? undefined : (route.validate ?? validatorsOf[operationId]);
  return {
    method: operation.method,
    path: operation.path,
    options: {
      ...route.options,
      id: operationId,
      tags: [...operation.tags],
      auth: route.auth ?? authOf(operation),
      ...(validate ? { validate } : {}),
    },
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
