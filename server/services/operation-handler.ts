// The Hapi-free form of an operation's handler, served by REST (routes/operation-route.ts) and called by MCP tools
// and A2A skills (agents/run-capability.ts), so no second dispatcher exists.
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

export type OperationHandle<Op extends OperationId> = (
  input: ContractInput<Op>,
  context: OperationContext,
) => Promise<OperationReply<Op>>;

/** A handler seen from outside its operation's types; the caller has validated the input. */
export type AnyOperationHandle = (
  input: { params: unknown; query: unknown; payload: unknown },
  context: OperationContext,
) => Promise<{ status: number; body: unknown; headers?: Readonly<Record<string, string>> }>;

/** The handlers of the server's operations, by operationId (filled when the routes are built). */
export interface OperationHandlers {
  handlerOf(operationId: OperationId): AnyOperationHandle | undefined;
}
