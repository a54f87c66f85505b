// The Hapi-free form of an operation's handler: the contract-typed input in (params, query, payload as the
// generated validators let them through), one of the operation's JSON responses out (status, body as the contract
// types them, headers). REST serves it through operationRoute (routes/operation-route.ts); the MCP tools and A2A
// skills call the same function by operationId (agents/run-capability.ts), so no second dispatcher exists.
import type { Caller } from "./access/principal.js";
import type { ContractInput, JsonStatus, OperationId, ResponseBody } from "../types/contract.js";

/** What a handler knows of its call beyond the input: who calls, where it is served, when it came. */
export interface OperationContext {
  /** The key or OAuth client calling, null when none was presented (or for the operator). */
  caller: Caller | null;
  /** Base of absolute URLs (status URLs) when PUBLIC_BASE_URL is unset. */
  origin: string;
  /** When the request arrived (ms since the epoch). */
  receivedAt: number;
  /** The Idempotency-Key header, when REST sent one (agents send none). */
  idempotencyKey?: string;
}

/** One of the operation's JSON responses: a status it documents and that status's body. */
export type OperationReply<Op extends OperationId> = {
  [S in JsonStatus<Op> & number]: { status: S; body: ResponseBody<Op, S>; headers?: Readonly<Record<string, string>> };
}[JsonStatus<Op> & number];

/** An operation's handler, typed from the contract. */
export type OperationHandle<Op extends OperationId> = (
  input: ContractInput<Op>,
  context: OperationContext,
) => Promise<OperationReply<Op>>;

/** A handler seen from outside its operation's types (the registry holds every operation's). The caller has
 * validated the input with the operation's generated validators. */
export type AnyOperationHandle = (
  input: { params: unknown; query: unknown; payload: unknown },
  context: OperationContext,
) => Promise<{ status: number; body: unknown; headers?: Readonly<Record<string, string>> }>;

/** The handlers of the server's operations, by operationId (filled when the routes are built). */
export interface OperationHandlers {
  handlerOf(operationId: OperationId): AnyOperationHandle | undefined;
}
