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
  apply(value: Record<string, unknown>): unknown;
}

/** Ways to break a conforming object body, each one a contract violation the server must answer with a 4xx. */
export function mutations(schema: Schema): Mutation[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const out: Mutation[] = [
    { label: "array instead of object", apply: () => [] },
    { label: "string instead of object", apply: () => "not an object" },
  ];
  if (schema.additionalProperties === false)
    out.push({ label: "unknown property", apply: (v) => ({ ...v, unexpected_field: 1 }) });
  for (const name of required)
    out.push({
      label: `missing ${name}`,
      apply: (v) => Object.fromEntries(Object.entries(v).filter(([k]) => k !== name)),
    });
  for (const [name, prop] of Object.entries(properties)) {
    const type = typeOf(prop);
    if (type === "string" || Array.isArray(prop.enum))
      out.push({ label: `${name} as number`, apply: (v) => ({ ...v, [name]: 12345 }) });
    if (type === "integer" || type === "number")
      out.push({ label: `${name} as string`, apply: (v) => ({ ...v, [name]: "twelve" }) });
    if (Array.isArray(prop.enum))
      out.push({ label: `${name} outside enum`, apply: (v) => ({ ...v, [name]: "zz_not_allowed" }) });
    if (typeof prop.maxLength === "number")
      out.push({
        label: `${name} too long`,
        apply: (v) => ({ ...v, [name]: "x".repeat((prop.maxLength as number) + 1) }),
      });
    if (typeof prop.minimum === "number")
      out.push({ label: `${name} below minimum`, apply: (v) => ({ ...v, [name]: (prop.minimum as number) - 1 }) });
  }
  return out;
}
