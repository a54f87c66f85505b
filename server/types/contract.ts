// The server's view of the contract's types: request bodies, parameters and responses per operationId, derived
// from the one generated module the SDK uses too (sdk/generated/openapi.d.ts), so a renamed field fails tsc here.
import type { components, operations } from "../../sdk/generated/openapi.js";
import type { ContractDefaults } from "../generated/contract.js";

export type { components, operations };
export type Schemas = components["schemas"];
export type OperationId = keyof operations;

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON request body of an operation (never when it takes none). */
export type RequestBody<Op extends OperationId> = JsonContent<NonNullable<operations[Op]["requestBody"]>>;

/** The path parameters of an operation. */
export type PathParams<Op extends OperationId> = NonNullable<operations[Op]["parameters"]["path"]>;

/** The query parameters of an operation. */
export type QueryParams<Op extends OperationId> = NonNullable<operations[Op]["parameters"]["query"]>;

/** The statuses an operation answers with a JSON body. */
export type JsonStatus<Op extends OperationId> = {
  [S in keyof operations[Op]["responses"]]: JsonContent<operations[Op]["responses"][S]> extends never ? never : S;
}[keyof operations[Op]["responses"]];

/** The JSON body of one of an operation's responses. */
export type ResponseBody<Op extends OperationId, S extends keyof operations[Op]["responses"]> = JsonContent<
  operations[Op]["responses"][S]
>;

/** A request part after validation: joi has filled in the fields the contract gives a default. */
type WithDefaults<Part, Field> = [Part] extends [never] ? never : Part & Required<Pick<Part, Field & keyof Part>>;
type DefaultsOf<Op extends OperationId, Part extends "body" | "query"> = Op extends keyof ContractDefaults
  ? ContractDefaults[Op][Part]
  : never;

/** The request body a route and its service see: validated, defaults applied. */
export type ValidBody<Op extends OperationId> = WithDefaults<RequestBody<Op>, DefaultsOf<Op, "body">>;

/** The query a route and its service see: validated, defaults applied. */
export type ValidQuery<Op extends OperationId> = WithDefaults<QueryParams<Op>, DefaultsOf<Op, "query">>;

/** What the generated validators let through for the operation (defaults applied): a handler's input. */
export interface ContractInput<Op extends OperationId> {
  payload: ValidBody<Op>;
  params: PathParams<Op>;
  query: ValidQuery<Op>;
}
