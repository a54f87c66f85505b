// fast-check arbitraries from the contract's JSON Schemas: values that conform, and mutations that do not.
import fc from "fast-check";
import type { JsonObject } from "../../scripts/contract.js";

type Schema = JsonObject;

const typeOf = (s: Schema): string | undefined =>
  Array.isArray(s.type) ? (s.type.find((t) => t !== "null") as string) : (s.type as string | undefined);

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  if (s.format === "uri")
    return fc.webUrl({ validSchemes: ["https"] }).filter((u) => u.length <= ((s.maxLength as number) ?? 255));
  if (typeof s.pattern === "string")
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= ((s.minLength as number) ?? 0) && v.length <= ((s.maxLength as number) ?? 100));
  return fc.string({
    minLength: (s.minLength as number) ?? 0,
    maxLength: Math.min((s.maxLength as number) ?? 40, 60),
    unit: "grapheme-ascii",
  });
}

/** An arbitrary producing values that satisfy `schema` (the subset of JSON Schema the contract uses). */
export function valid(schema: Schema): fc.Arbitrary<unknown> {
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map(valid));
  if (Array.isArray(schema.allOf)) return valid(Object.assign({}, ...(schema.allOf as Schema[])));
  switch (typeOf(schema)) {
    case "string":
      return stringArbitrary(schema);
    case "integer":
      return fc.integer({ min: (schema.minimum as number) ?? -1000, max: (schema.maximum as number) ?? 1_000_000 });
    case "number":
      return fc.double({
        min: (schema.minimum as number) ?? -1000,
        max: (schema.maximum as number) ?? 1e6,
        noNaN: true,
      });
    case "boolean":
      return fc.boolean();
    case "array": {
      const items = valid((schema.items as Schema) ?? {});
      const constraints = {
        minLength: (schema.minItems as number) ?? 0,
        maxLength: Math.min((schema.maxItems as number) ?? 3, 3),
      };
      return schema.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const record = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valid(v)]));
      return fc.record(record, { requiredKeys: required.filter((k) => k in properties) });
    }
    default:
      return fc.jsonValue();
  }
}

export interface Mutation {
  label: string;
  /** `bound`: a value of the right type past a bound (the only kind a query string can carry); else `type`/`shape`. */
  rule: "shape" | "type" | "bound";
  apply(value: Record<string, unknown>): unknown;
}

const typesOf = (s: Schema): string[] => [s.type].flat().filter((t): t is string => typeof t === "string");

/** Values of a type the property refuses: a number string where a number is due ("45000", what a converting
 * validator lets through) and "true" where a boolean is, a number where only a string is. */
function typeMutations(name: string, prop: Schema): Mutation[] {
  const types = typesOf(prop);
  const set = (label: string, value: unknown): Mutation => ({
    label,
    rule: "type",
    apply: (v) => ({ ...v, [name]: value }),
  });
  const out: Mutation[] = [];
  if ((types.length || Array.isArray(prop.enum)) && !types.some((t) => t === "integer" || t === "number"))
    out.push(set(`${name} as number`, 12345));
  if (!types.includes("string") && types.some((t) => t === "integer" || t === "number"))
    out.push(
      set(`${name} as string`, "twelve"),
      set(`${name} as numeric string`, String((prop.minimum as number | undefined) ?? 1)),
    );
  if (!types.includes("string") && types.includes("boolean")) out.push(set(`${name} as string "true"`, "true"));
  return out;
}

/** Values of the right type just past one of the property's bounds. */
function boundMutations(name: string, prop: Schema): Mutation[] {
  const set = (label: string, value: unknown): Mutation => ({
    label,
    rule: "bound",
    apply: (v) => ({ ...v, [name]: value }),
  });
  const out: Mutation[] = [];
  if (Array.isArray(prop.enum) && !prop["x-extensible-enum"]) out.push(set(`${name} outside enum`, "zz_not_allowed"));
  if ("const" in prop) out.push(set(`${name} not its const`, `${String(prop.const)}-not`));
  if (typeof prop.maxLength === "number") out.push(set(`${name} too long`, "x".repeat(prop.maxLength + 1)));
  if (typeof prop.minimum === "number") out.push(set(`${name} below minimum`, prop.minimum - 1));
  if (typeof prop.maximum === "number") out.push(set(`${name} above maximum`, prop.maximum + 1));
  return out;
}

/** Ways to break a conforming object body, each one a contract violation the server must answer with a 4xx. */
export function mutations(schema: Schema): Mutation[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const out: Mutation[] = [
    { label: "array instead of object", rule: "shape", apply: () => [] },
    { label: "string instead of object", rule: "shape", apply: () => "not an object" },
  ];
  if (schema.additionalProperties === false)
    out.push({ label: "unknown property", rule: "shape", apply: (v) => ({ ...v, unexpected_field: 1 }) });
  for (const name of required)
    out.push({
      label: `missing ${name}`,
      rule: "shape",
      apply: (v) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== name)),
    });
  for (const [name, prop] of Object.entries(properties))
    out.push(...typeMutations(name, prop), ...boundMutations(name, prop));
  return out;
}
