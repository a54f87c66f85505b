// The MCP endpoint: a stateless Streamable HTTP server (fresh per request) with the registry's tools and the key's
// orders as resources (mcp-resources.ts); a confirming tool may answer ask-first.ts's preview.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { capabilities } from "./capabilities.js";
import type { Services } from "../index.js";
import type { OperationHandlers } from "../operation-handler.js";
import {
  costsOf,
  createCapabilityInvoker,
  type CapabilityCost,
  isDomainError,
  isEntitlementError,
  type CapabilityInvoker,
  type InvokeContext,
} from "./run-capability.js";
import { orderHandleOf, type CapabilityId } from "./tool-schemas.js";
import { isRecord } from "../shared/is-record.js";
import { contractVersion } from "../../contract-version.js";
import { confirmationPreviewSchema, confirmationTokenSchema, isConfirmationPreview } from "./ask-first.js";
import { createOrderResources, orderResourceTemplate, type OrderResources } from "./mcp-resources.js";

/** JSON-RPC code for "credential not entitled to order" (product spec §4.7/§7); resources/read uses it too. */
export const entitlementErrorCode = -32002;
/** MCP's "resource not found" (resources/read). */
export const resourceNotFoundCode = -32002;

/** The SDK (and the zod it builds on) loads with the first MCP request: importing it is a large part of start-up. */
async function importSdk() {
  const [server, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return { server, http, types };
}
type Sdk = Awaited<ReturnType<typeof importSdk>>;
let sdkImport: Promise<Sdk> | undefined;
const loadSdk = () => (sdkImport ??= importSdk());

/** A JSON-RPC error the SDK sends as is: `{ code, message, data }` without the McpError message prefix. */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const confirmNote =
  "Asks before it acts: called without `confirmation_token` it does nothing and answers a preview (`confirmation_required: true`) with a token; call again with the same arguments and that token to act.";

/** A confirming tool's schemas: its operation's input plus `confirmation_token`; its answer or the preview. */
function toolSchemas(invoker: CapabilityInvoker, c: (typeof capabilities)[number]) {
  const { input, output } = invoker.schemas[c.id];
  if (!c.confirm) return { inputSchema: input, outputSchema: output };
  const properties = {
    ...(isRecord(input.properties) ? input.properties : {}),
    confirmation_token: confirmationTokenSchema,
  };
  return {
    inputSchema: { ...input, properties },
    outputSchema: { type: "object" as const, anyOf: [output, confirmationPreviewSchema] },
  };
}

function listTools(invoker: CapabilityInvoker): Tool[] {
  return capabilities
    .filter((c) => c.mcp_tool)
    .map((c) => ({
      name: c.mcp_tool!,
      description: [c.purpose, c.tool_note, c.confirm ? confirmNote : ""].filter(Boolean).join(" "),
      ...toolSchemas(invoker, c),
      annotations: { ...c.annotations },
    }));
}

function toolError(message: string, details: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ message, ...details }) }] };
}

/** Over MCP the order's id is its handle (orderHandleOf). */
function mcpShape(id: CapabilityId, out: Record<string, unknown>): Record<string, unknown> {
  const { order } = out;
  if (id !== "dispatch.order" || isConfirmationPreview(out) || !isRecord(order) || typeof order.id !== "string")
    return out;
  return { ...out, order: { ...order, id: orderHandleOf(order.id) } };
}

async function callTool(
  { invoker, ErrorCode }: { invoker: CapabilityInvoker; ErrorCode: Sdk["types"]["ErrorCode"] },
  name: string,
  args: unknown,
  ctx: McpContext,
): Promise<CallToolResult> {
  const capability = capabilities.find((c) => c.mcp_tool === name);
  if (!capability) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool ${name}; see tools/list.`);
  if (capability.access !== "public" && !ctx.caller) {
    return toolError(
      `${name} needs a credential: send a provisioned API key as \`Authorization: Bearer <API_KEY>\`${capability.id === "dispatch.quote" ? " (or a self-serve OAuth access token)" : ""}.`,
      { code: "missing_credential" },
    );
  }
  try {
    const structured = mcpShape(capability.id, await invoker.invoke(capability.id, args, ctx));
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    if (isEntitlementError(error)) throw new JsonRpcError(entitlementErrorCode, error.message, error.body);
    if (isDomainError(error))
      return toolError(error.message, {
        code: error.code,
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
      });
    ctx.log(error);
    throw new JsonRpcError(ErrorCode.InternalError, "Internal error; it has been logged.");
  }
}

/** The most JSON-RPC messages one request may carry: bounds the work a single request can cause. */
export const mcpBatchLimit = 20;

/** Each message of a batch costs a point (a batch of 100 tool calls is 100 requests, not one). */
export function mcpCosts(payload: unknown): CapabilityCost[] {
  const messages: unknown[] = Array.isArray(payload) ? payload : [payload];
  const toolOf = (message: Record<string, unknown>) => (isRecord(message.params) ? message.params.name : undefined);
  const called = messages
    .filter(isRecord)
    .filter((m) => m.method === "tools/call")
    .map((m) => capabilities.find((c) => c.mcp_tool !== null && c.mcp_tool === toolOf(m))?.id ?? "");
  return costsOf(Math.min(messages.length, mcpBatchLimit + 1), called);
}

/** A resources/* failure as JSON-RPC: an order the key cannot read is "resource not found", as an unknown one. */
function resourceError(error: unknown, ctx: McpContext, ErrorCode: Sdk["types"]["ErrorCode"]): JsonRpcError {
  if (isDomainError(error)) {
    if (error.kind === "not_found")
      return new JsonRpcError(resourceNotFoundCode, "Resource not found", { code: error.code });
    const code = error.kind === "validation" ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
    return new JsonRpcError(code, error.message, { code: error.code });
  }
  if (isEntitlementError(error)) return new JsonRpcError(ErrorCode.InvalidRequest, error.message, error.body);
  ctx.log(error);
  return new JsonRpcError(ErrorCode.InternalError, "Internal error; it has been logged.");
}

// eslint-disable-next-line @typescript-eslint/no-deprecated -- the low-level Server, see createMcpService
function serveResources(server: Server, sdk: Sdk, resources: OrderResources, ctx: McpContext): void {
  const failed = (error: unknown) => Promise.reject(resourceError(error, ctx, sdk.types.ErrorCode));
  server.setRequestHandler(sdk.types.ListResourcesRequestSchema, (request) =>
    resources.list(request.params?.cursor, ctx).catch(failed),
  );
  server.setRequestHandler(sdk.types.ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [orderResourceTemplate],
  }));
  server.setRequestHandler(sdk.types.ReadResourceRequestSchema, (request) =>
    resources.read(request.params.uri, ctx).catch(failed),
  );
}

export interface McpContext extends InvokeContext {
  log(error: unknown): void;
}

export function createMcpService(
  services: Pick<Services, "config" | "db" | "orders" | "quotes">,
  handlers: OperationHandlers,
) {
  const invoker = createCapabilityInvoker(services, handlers);
  const tools = listTools(invoker);
  const resources = createOrderResources(services);

  // The low-level Server (deprecated for apps) is kept because tools are served from hand-built JSON schemas.
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
  function createMcpServer(sdk: Sdk, ctx: McpContext): Server {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above: McpServer requires zod schemas
    const server = new sdk.server.Server(
      { name: "dispatch", title: "Field-Service Dispatch", version: contractVersion },
      { capabilities: { tools: {}, resources: {} } },
    );
    server.setRequestHandler(sdk.types.ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(sdk.types.CallToolRequestSchema, (request) =>
      callTool({ invoker, ErrorCode: sdk.types.ErrorCode }, request.params.name, request.params.arguments, ctx),
    );
    serveResources(server, sdk, resources, ctx);
    return server;
  }

  return {
    tools,

    /** Answers one Streamable HTTP request on the raw Node objects; the transport writes the response. */
    async handle(req: IncomingMessage, res: ServerResponse, body: unknown, ctx: McpContext): Promise<void> {
      const sdk = await loadSdk();
      const server = createMcpServer(sdk, ctx);
      const transport = new sdk.http.StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.once("close", () => void server.close()); // closes the transport too
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
  };
}

/** RFC 9728 metadata of a protected resource: the whole API (path "") or the MCP endpoint ("/api/mcp"). */
export function protectedResourceMetadata(base: string, resourcePath = "") {
  return {
    resource: `${base}${resourcePath}`,
    authorization_servers: [base],
    bearer_methods_supported: ["header"],
    scopes_supported: ["dispatch.quote"],
    resource_documentation: `${base}/openapi.json`,
  };
}

/** RFC 8414 metadata of the self-serve client-credentials server that protects the MCP endpoint. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    token_endpoint: `${base}/api/mcp/oauth/token`,
    registration_endpoint: `${base}/api/mcp/oauth/register`,
    grant_types_supported: ["client_credentials"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    scopes_supported: ["dispatch.quote"],
    response_types_supported: [],
    service_documentation: `${base}/docs`,
  };
}

export type McpService = ReturnType<typeof createMcpService>;
