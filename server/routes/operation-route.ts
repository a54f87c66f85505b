// A route is an operation of the contract, named by its operationId: method, path, tags, auth and validators come
// from the generated operation table and joi schemas, so a route file holds only its handler and, rarely, a route
// option (rate-limit policy, payload parsing). The handler is the operation's Hapi-free `handle`, which the MCP
// tools and A2A skills call too, or a Hapi `handler` where the answer is not one JSON body (docs/decisions.md,
// "A route is an operation of the contract").
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
import type { ContractInput, JsonStatus, OperationId, ResponseBody } from "../types/contract.js";
import type { AnyOperationHandle, OperationHandle } from "../services/operation-handler.js";
import { hapiHandlerOf } from "./operation-handle.js";

export type { ContractInput } from "../types/contract.js";

declare module "@hapi/hapi" {
  interface RouteOptionsApp {
    /** The operation's contract-typed handler, which the agents' surfaces call too (routes/index.ts). */
    handle?: AnyOperationHandle;
  }
}

/** Route options a route may add; method, path, id, tags, auth and validate are the contract's. */
export type ExtraOptions = Omit<RouteOptions, "id" | "tags" | "auth" | "validate">;

interface RouteSettings {
  options?: ExtraOptions;
  /** Overrides the auth derived from the security requirement; only where a strategy differs from the schemes'
   * (the route file says why). */
  auth?: RouteOptions["auth"];
  /** Overrides the operation's generated validators, for a route whose contract answers a failure its own way
   * (OAuth errors, 400 invalid_url): built from the same validators. null: the handler validates (JSON-RPC
   * endpoints answer a bad message with their protocol's error codes, never the generic 422). */
  validate?: RouteOptionsValidate | null;
}

/** A route with a Hapi handler (streams, raw or text answers, the JSON-RPC endpoints). */
interface HapiRoute<Op extends OperationId> extends RouteSettings {
  handler: (request: Request, h: ResponseToolkit, input: ContractInput<Op>) => Lifecycle.ReturnValue;
  handle?: never;
}

/** A route whose handler is the operation's contract-typed `handle`. */
interface HandleRoute<Op extends OperationId> extends RouteSettings {
  handle: OperationHandle<Op>;
  handler?: never;
}

export type OperationRoute<Op extends OperationId> = HapiRoute<Op> | HandleRoute<Op>;

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

/** A route without the contract's types: an operation of any table (a test builds one from a copy of the
 * contract), its validators, and a handler or handle. */
export interface UntypedRoute extends RouteSettings {
  handler?: (request: Request, h: ResponseToolkit, input: never) => Lifecycle.ReturnValue;
  handle?: AnyOperationHandle;
}

/** The route of `operation` (an entry of an operation table) named `operationId`. */
export function routeOfOperation(
  operationId: string,
  operation: Operation,
  generatedValidate: RouteOptionsValidate | undefined,
  route: UntypedRoute,
): ServerRoute {
  const validate = route.validate === null ? undefined : (route.validate ?? generatedValidate);
  const handle = route.handle;
  // The one place the validated request is trusted to have the contract's shape: `validate` (the operation's
  // generated validators) has checked it before the handler runs.
  const handler: Lifecycle.Method = handle
    ? hapiHandlerOf(handle)
    : (request, h) => route.handler!(request, h, request as never);
  return {
    method: operation.method,
    path: operation.path,
    options: {
      ...route.options,
      id: operationId,
      tags: [...operation.tags],
      auth: route.auth ?? authOf(operation),
      app: { ...route.options?.app, operation: { operationId, ...operation }, ...(handle ? { handle } : {}) },
      ...(validate ? { validate } : {}),
    },
    handler,
  };
}

const validatorsOf = validators as Partial<Record<OperationId, RouteOptionsValidate>>;

/** The route of a contract operation, by its operationId. */
export function operationRoute<Op extends OperationId>(operationId: Op, route: OperationRoute<Op>): ServerRoute {
  return routeOfOperation(operationId, operations[operationId], validatorsOf[operationId], route as UntypedRoute);
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
