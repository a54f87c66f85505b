// `dispatch mcp tools` and `dispatch mcp call <tool>`: JSON-RPC over the MCP endpoint, printing the result.
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { CliError, echoed, ExitCode, usageError } from "../errors.js";
import { addExamples } from "../help.js";
import type { OperationSpec } from "../operation-spec.js";
import { ensureGroup } from "./groups.js";
import type { RunAction } from "./operation.js";

const mcpHeaders = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" };

interface JsonRpcAnswer {
  result?: { isError?: boolean; content?: { text?: string }[] } & Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Raised when the JSON-RPC answer carries an error, or a tool result flagged isError. */
function rpcFailure(answer: JsonRpcAnswer, what: string): CliError | null {
  if (answer.error) {
    const code = answer.error.code === -32002 ? ExitCode.paymentRequired : ExitCode.clientError;
    return new CliError(`${what}: JSON-RPC error ${answer.error.code}: ${answer.error.message}`, code);
  }
  if (answer.result?.isError) {
    const text = answer.result.content?.map((c) => c.text ?? "").join(" ") ?? "";
    return new CliError(`${what} failed: ${text || "tool error"}`, ExitCode.clientError);
  }
  return null;
}

async function callRpc(
  spec: OperationSpec,
  ctx: CliContext,
  method: string,
  params?: Record<string, unknown>,
): Promise<unknown> {
  const { sendOperation } = await import("../send.js");
  const body = { jsonrpc: "2.0", id: 1, method, ...(params && { params }) };
  const answer = (await sendOperation(spec, { path: {}, query: {}, header: {}, body }, ctx, mcpHeaders)) as
    JsonRpcAnswer | undefined;
  if (!answer || typeof answer === "string") return answer; // nothing, or the curl command of --dry-run
  const failure = rpcFailure(answer, method === "tools/call" ? `tool ${String(params?.name)}` : method);
  if (failure) throw failure;
  return answer.result;
}

function parseArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw usageError(`--args must be a JSON object (got ${echoed(raw)})`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw usageError("--args must be a JSON object");
  return parsed as Record<string, unknown>;
}

export function addMcpCommands(root: Command, spec: OperationSpec, run: RunAction): void {
  const mcp = ensureGroup(root, ["mcp"]);
  const tools = mcp
    .command("tools")
    .summary("List the MCP tools (tools/list)")
    .description(`List the MCP tools (tools/list).\n\n${spec.description}`);
  addExamples(tools, ["dispatch mcp tools", "dispatch mcp tools --output table"]);
  tools.action(async () => run(tools, (ctx) => callRpc(spec, ctx, "tools/list")));

  const call = mcp
    .command("call")
    .summary("Call an MCP tool (tools/call)")
    .description(`Call an MCP tool (tools/call) and print its result.\n\n${spec.description}`);
  call.argument("<tool>", "tool name, e.g. dispatch.quote (see `dispatch mcp tools`)");
  call.option("--args <json>", "tool arguments as a JSON object (default {})");
  addExamples(call, [
    "dispatch mcp call dispatch.index",
    `dispatch mcp call dispatch.quote --api-key "$DISPATCH_API_KEY" --args '{"trade":"plumbing","location":{"state":"TX"}}'`,
  ]);
  call.action(async (tool: string) =>
    run(call, (ctx) =>
      callRpc(spec, ctx, "tools/call", { name: tool, arguments: parseArgs(call.opts<{ args?: string }>().args) }),
    ),
  );
}
