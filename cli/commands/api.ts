// `dispatch api <METHOD> <path>`: the raw escape hatch with auth, base URL, --query and output applied (as `gh api`).
import type { Command } from "commander";
import { echoed, usageError } from "../errors.js";
import { addExamples } from "../help.js";
import type { RequestTarget } from "../send.js";
import type { RequestParts } from "../validate.js";
import type { RunAction } from "./operation.js";

const methods = ["get", "post", "put", "patch", "delete"] as const;
const maxPathLength = 2048;

/** Splits `/path?a=1&a=2` into the target and its query; repeated names become arrays. */
export function parseRawRequest(method: string, path: string): { target: RequestTarget; query: RequestParts["query"] } {
  const verb = method.toLowerCase() as RequestTarget["method"];
  if (!methods.includes(verb)) throw usageError(`<method> must be one of ${methods.join(", ").toUpperCase()}`);
  if (!path.startsWith("/") || path.length > maxPathLength)
    throw usageError(`<path> must start with / and be at most ${maxPathLength} characters (got ${echoed(path)})`);
  const url = new URL(path, "http://path.invalid");
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [previous, value].flat();
  }
  return { target: { method: verb, path: url.pathname, bodyContentType: "application/json" }, query };
}

export function addApiCommand(root: Command, run: RunAction): void {
  const api = root
    .command("api")
    .summary("Send any request, with auth and base URL applied")
    .description("Send any request to the API with the profile's auth and base URL; prints the answer.")
    .argument("<method>", `HTTP method: ${methods.join(", ").toUpperCase()}`)
    .argument("<path>", "path from the API root, query string allowed, e.g. /api/dispatch/index")
    .option("--data <json|@file|->", "request body as JSON: inline, @file.json or - for stdin")
    .option("--paginate", "follow next_cursor and print every page's items as one list (GET)");
  addExamples(api, [
    "dispatch api GET /api/dispatch/index --query 'trades[].code'",
    "dispatch api GET '/api/admin/v1/keys?limit=50' --paginate -o ndjson",
    'dispatch api POST /api/dispatch/v1/estimate --data \'{"trade":"plumbing","location":{"state":"TX"}}\'',
  ]);
  api.action(async (method: string, path: string) =>
    run(api, async (ctx) => {
      const [{ readData }, { sendOperation, sendAllPages }] = await Promise.all([
        import("../request-input.js"),
        import("../send.js"),
      ]);
      const { target, query } = parseRawRequest(method, path);
      const data = api.opts<{ data?: string }>().data;
      const parts: RequestParts = {
        path: {},
        query,
        header: {},
        body: data === undefined ? undefined : readData(data),
      };
      return ctx.paginate ? sendAllPages(target, parts, ctx) : sendOperation(target, parts, ctx);
    }),
  );
}
