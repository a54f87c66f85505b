// Redocly plugin: every request string (body, path, query, header) needs maxLength, enum or const, and every
// request integer a maximum; free text carries the contract's text pattern (no control characters, no lone
// surrogates), so no input the contract accepts can overflow storage.
const isType = (schema, type) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
const children = ["properties", "items", "additionalProperties", "allOf", "oneOf", "anyOf", "prefixItems"];

// Redocly's nested visitor sees only the top schema of a request, so sub-schemas are walked here.
function checkTree(start, ctx) {
  const seen = new Set();
  const walk = (raw, location) => {
    const resolved = raw && typeof raw === "object" && "$ref" in raw ? ctx.resolve(raw) : undefined;
    const schema = resolved?.node ?? raw;
    const here = resolved?.location ?? location;
    if (!schema || typeof schema !== "object" || seen.has(schema)) return;
    seen.add(schema);
    const listed = "enum" in schema || "const" in schema;
    if (isType(schema, "string") && !listed && !("maxLength" in schema && "pattern" in schema))
      ctx.report({
        message: "A request string needs maxLength and a pattern (the text rule), or enum/const.",
        location: here.child("type"),
      });
    if (isType(schema, "integer") && !("maximum" in schema || "enum" in schema || "const" in schema))
      ctx.report({ message: "A request integer needs a maximum.", location: here.child("type") });
    for (const key of children) {
      const value = schema[key];
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, here.child([key, i])));
      else if (key === "properties" && value) for (const [k, v] of Object.entries(value)) walk(v, here.child([key, k]));
      else if (value && typeof value === "object") walk(value, here.child(key));
    }
  };
  walk(start, ctx.location);
}

function boundsRule() {
  let inCallback = 0; // callbacks and webhooks describe what we send, not what we accept
  const check = { enter: (schema, ctx) => inCallback || checkTree(schema, ctx) };
  return {
    Callback: { enter: () => inCallback++, leave: () => inCallback-- },
    WebhooksMap: { enter: () => inCallback++, leave: () => inCallback-- },
    RequestBody: { Schema: check },
    Parameter: { Schema: check },
  };
}

export default function dispatchPlugin() {
  return { id: "dispatch", rules: { oas3: { "request-bounds": boundsRule } } };
}
