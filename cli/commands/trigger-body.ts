// The createOrder body `dispatch trigger` sends: its default job (or --data), what the event type needs on top, then
// each `--override field=value`. A value is read as the contract types its field (a number for `nte_cents`, a
// string for `location.zip=78701`), so no guessing turns a ZIP into a number, and the whole body is checked against
// the createOrder request schema before anything is sent (cli/validate.ts, exit 2), as every command's input is.
import { CliError, echoed, usageError } from "../errors.js";
import { readData } from "../request-input.js";

type Body = Record<string, unknown>;
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
}

/** A routine plumbing job in Texas: the sandbox's demo pool covers it, so the order is matched and can advance. */
export const defaultOrder: Body = {
  trade: "plumbing",
  location: { state: "TX", zip: "78701", city: "Austin" },
  urgency: "routine",
  description: "Test order made by dispatch trigger.",
};

const isRecord = (value: unknown): value is Body =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The createOrder body schema (dereferenced, cli/generated/request-schemas.ts). */
async function bodySchema(): Promise<Schema> {
  const { requestSchemas } = await import("../generated/request-schemas.js");
  return (requestSchemas.createOrder as { properties: { body: Schema } }).properties.body;
}

/** Every field path a body may set, for the message naming an unknown one. */
const fieldPaths = (schema: Schema, prefix = ""): string[] =>
  Object.entries(schema.properties ?? {}).flatMap(([name, field]) =>
    field.properties ? fieldPaths(field, `${prefix}${name}.`) : [`${prefix}${name}`],
  );

/** The raw text as the field's contract type; a value that is not one is left as text for the schema to refuse. */
function typed(field: Schema, raw: string): unknown {
  const types = [field.type ?? []].flat();
  if (types.includes("null") && raw === "null") return null;
  if ((types.includes("integer") || types.includes("number")) && raw.trim() !== "" && Number.isFinite(Number(raw)))
    return Number(raw);
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

/** Sets one `field.path=value` on the body; an unknown field or a malformed pair is a usage error. */
function applyOverride(schema: Schema, body: Body, pair: string): string {
  const at = pair.indexOf("=");
  const path = at > 0 ? pair.slice(0, at).split(".") : [];
  if (path.length === 0 || path.some((key) => key === ""))
    throw usageError(`--override must be field=value, such as location.state=CA (got ${echoed(pair)})`);
  let field: Schema | undefined = schema;
  for (const key of path) field = field?.properties?.[key];
  if (!field || field.properties)
    throw usageError(
      `--override ${path.join(".")}: not a field of a createOrder body (one of ${fieldPaths(schema).join(", ")})`,
    );
  let node = body;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = node[key] = isRecord(next) ? { ...next } : {};
  }
  node[path.at(-1)!] = typed(field, pair.slice(at + 1));
  return path.join(".");
}

/** A state set by --override leaves behind the ZIP and city of the job it replaced (they lie in the old state, and
 * the server refuses a ZIP outside its state), unless they were set too. */
function leavePlaceOfOtherState(body: Body, job: Body, set: readonly string[]): void {
  const location = body.location;
  const before = isRecord(job.location) ? job.location.state : undefined;
  if (!isRecord(location) || !set.includes("location.state") || location.state === before) return;
  if (!set.includes("location.zip")) delete location.zip;
  if (!set.includes("location.city")) delete location.city;
}

/** The body to create the order with; refuses (exit 2, nothing sent) what createOrder's schema refuses. */
export async function orderBody(
  data: string | undefined,
  forType: ((body: Body) => Body) | undefined,
  overrides: readonly string[],
): Promise<Body> {
  const given = data === undefined ? defaultOrder : readData(data);
  const schema = await bodySchema();
  const job = forType?.(given) ?? given;
  const body = structuredClone(job);
  const set = overrides.map((pair) => applyOverride(schema, body, pair));
  leavePlaceOfOtherState(body, job, set);
  const [{ validateRequest }, { operations }] = await Promise.all([
    import("../validate.js"),
    import("../generated/operations.js"),
  ]);
  // No flags: each field is named by its path, which is what --override takes.
  const spec = { ...operations.find((o) => o.operationId === "createOrder")!, flags: [] };
  try {
    validateRequest(spec, { path: {}, query: {}, header: {}, body });
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const field = /^--data field (\S+)/.exec(error.message)?.[1];
    if (field === undefined || !set.includes(field)) throw error;
    throw usageError(error.message.replace(/^--data field/, "--override"));
  }
  return body;
}
