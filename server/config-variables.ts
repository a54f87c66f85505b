// What a configuration variable is (name, joi schema with its default and bounds, documented meaning, how its value
// enters the config) and what server/config.ts derives from its one definition of each: the environment's joi
// schema, the typed config, docs/operating.md's variable table (`npm run generate`) and `dispatch-server start --help`.
import Joi from "joi";

/** One environment variable, read as a T. */
export interface Variable<T = unknown> extends Setting<T> {
  readonly name: string;
  /** Validates and converts the raw text; its default is the variable's default. */
  readonly schema: Joi.Schema;
  /** The table's markdown; a variable without one shares the row (and the meaning) of the variable before it. */
  readonly meaning?: string;
  /** The table's default when it is not the schema's default in backticks (nor "unset" without a default). */
  readonly shown?: string;
}

/** A setting of the config: one variable, or several read into one value. */
export interface Setting<T = unknown> {
  /** The variables it reads, in the documented order. */
  readonly variables: readonly Variable[];
  /** Its value from the validated environment (converted, defaults filled in). */
  read(env: Readonly<Record<string, unknown>>): T;
}

/** The values a tree of settings reads into: the config's type is this, inferred from the definition. */
export type SettingsOf<T extends Record<string, Setting>> = { -readonly [K in keyof T]: ReturnType<T[K]["read"]> };

type Documented = Pick<Variable, "meaning" | "shown">;

function variable<T>(name: string, schema: Joi.Schema, doc: Documented, read: (value: unknown) => T): Variable<T> {
  return {
    name,
    schema,
    ...doc,
    get variables() {
      return [this];
    },
    read: (env) => read(env[name]),
  };
}

const nonEmpty = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** Settings kept together in the config (`rateLimit: { points, burst }`), optionally combined into one value. */
export function group<T extends Record<string, Setting>, R = SettingsOf<T>>(
  members: T,
  combine?: (values: SettingsOf<T>) => R,
): Setting<R> {
  const read = (env: Readonly<Record<string, unknown>>) => {
    const entries = Object.entries(members).map(([key, member]) => [key, member.read(env)]);
    const values = Object.fromEntries(entries) as SettingsOf<T>;
    return combine ? combine(values) : (values as R);
  };
  return { variables: Object.values(members).flatMap((member) => member.variables), read };
}

/** A string variable with a default. */
export const text = (name: string, schema: Joi.StringSchema | Joi.AlternativesSchema, doc: Documented) =>
  variable(name, schema, doc, String);

/** A string variable without a default: unset and "" both read as null. */
export const optionalText = (name: string, schema: Joi.StringSchema, doc: Documented) =>
  variable(name, schema.allow(""), doc, nonEmpty);

/** Comma-separated items; unset or "" reads as `unset`. */
export const list = <U>(name: string, schema: Joi.StringSchema, doc: Documented, unset: U) =>
  variable(
    name,
    schema.allow(""),
    doc,
    (value) =>
      nonEmpty(value)
        ?.split(",")
        .map((item) => item.trim()) ?? unset,
  );

/** A number with a default. */
export const number = (name: string, schema: Joi.NumberSchema, doc: Documented) => variable(name, schema, doc, Number);

/** A port that may be unset ("" too): null then. */
export const optionalPort = (name: string, doc: Documented) =>
  variable(name, Joi.number().port().allow(""), doc, (value) => (typeof value === "number" ? value : null));

const bool = Joi.boolean().truthy("1", "yes").falsy("0", "no", "");
/** true/false, 1/0, yes/no ("" is false). */
export const flag = (name: string, fallback: boolean, doc: Documented) =>
  variable(name, bool.default(fallback), doc, (value) => value === true);

/** The joi schema of the whole environment: one key per variable, other variables let through. */
export const schemaOf = (variables: readonly Variable[]) =>
  Joi.object<Record<string, unknown>>(Object.fromEntries(variables.map((each) => [each.name, each.schema]))).unknown(
    true,
  );

/** The default's text: the table's markdown (`shown`, else the schema's default in backticks, else "unset"). */
export function defaultOf(each: Variable): string {
  if (each.shown) return each.shown;
  const { flags } = each.schema.describe() as { flags?: { default?: string | number | boolean } };
  return flags?.default === undefined ? "unset" : `\`${String(flags.default)}\``;
}

/** The table's rows: variables without a meaning of their own join the row before them. */
export function rowsOf(variables: readonly Variable[]): { variables: Variable[]; meaning: string }[] {
  const rows: { variables: Variable[]; meaning: string }[] = [];
  for (const each of variables) {
    if (each.meaning) rows.push({ variables: [each], meaning: each.meaning });
    else if (rows.length) rows[rows.length - 1].variables.push(each);
    else throw new Error(`${each.name}: the first variable needs a meaning`);
  }
  return rows;
}

/** The variable table of docs/operating.md (markdown). */
export function markdownTable(variables: readonly Variable[]): string {
  const lines = rowsOf(variables).map((row) => {
    const names = row.variables.map((each) => `\`${each.name}\``).join(", ");
    return `| ${names} | ${row.variables.map(defaultOf).join(", ")} | ${row.meaning} |`;
  });
  return ["| variable | default | meaning |", "|---|---|---|", ...lines].join("\n");
}

/** Each variable with its --help text: plain text (no backticks), its row's meaning, its default when it has one. */
export function helpTexts(variables: readonly Variable[]): { variable: Variable; help: string }[] {
  const plain = (markdown: string) => markdown.replaceAll("`", "");
  return rowsOf(variables).flatMap((row) =>
    row.variables.map((each) => {
      const fallback = defaultOf(each);
      const shown = fallback === "unset" ? "" : ` (default ${plain(fallback)})`;
      return { variable: each, help: `${each.name}: ${plain(row.meaning)}${shown}` };
    }),
  );
}
