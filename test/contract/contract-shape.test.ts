// Choices in openapi.yaml that readers depend on and a tidy-up could undo: the docs navigation order, one casing for
// field names (the trade index's first camelCase names kept, deprecated), and time zones as one pattern-checked name
// rather than an enum.
import assert from "node:assert/strict";
import { loadContract, type JsonObject } from "../../scripts/contract.js";
import { stateTimeZones } from "../../server/services/dispatch/state-zones.js";

const contract = loadContract();

describe("openapi.yaml", () => {
  it("lists the quote and orders tags first, so /docs opens where a customer starts (probe later)", () => {
    const tags = (contract.tags as { name: string }[]).map((t) => t.name);
    assert.deepEqual(tags.slice(0, 2), ["quote", "orders"]);
    assert.ok(tags.indexOf("probe") > tags.indexOf("orders"));
  });

  it("keeps the trade index's first camelCase names, deprecated beside their snake_case twins", () => {
    const entry = ((contract.components as JsonObject).schemas as Record<string, JsonObject>).TradeIndexEntry;
    const properties = entry.properties as Record<string, JsonObject>;
    for (const [camel, snake] of [
      ["medianRateDollars", "median_rate_dollars"],
      ["billedHourlyRateRoutineDollars", "billed_hourly_rate_routine_dollars"],
    ]) {
      assert.equal(properties[camel].deprecated, true, camel);
      assert.ok((entry.required as string[]).includes(snake) && (entry.required as string[]).includes(camel));
    }
  });

  it("names every field of its own schemas in snake_case, but deprecated ones and the standards' documents", () => {
    // Shapes another specification names: the A2A agent card, MCP's tool list, JSON-RPC.
    const foreign = new Set(["AgentCard", "McpToolList", "JsonRpcRequest", "JsonRpcResponse"]);
    const found: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== "object") return;
      const node = schema as JsonObject;
      for (const [name, prop] of Object.entries((node.properties ?? {}) as Record<string, JsonObject>)) {
        if (!/^[a-z0-9]+(_[a-z0-9]+)*$/.test(name) && prop.deprecated !== true) found.push(`${where}.${name}`);
        walk(prop, `${where}.${name}`);
      }
      for (const key of ["items", "additionalProperties"]) walk(node[key], where);
      for (const key of ["allOf", "oneOf", "anyOf"]) for (const s of (node[key] ?? []) as unknown[]) walk(s, where);
    };
    const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
    for (const [name, schema] of Object.entries(schemas)) if (!foreign.has(name)) walk(schema, name);
    assert.deepEqual(found, []);
  });

  it("gives every state the zone the server counts its contractors' days in (UsState x-time-zones)", () => {
    const state = ((contract.components as JsonObject).schemas as Record<string, JsonObject>).UsState;
    assert.deepEqual(state["x-time-zones"], stateTimeZones);
  });

  describe("time zones", () => {
    const schemas = (contract.components as JsonObject).schemas as Record<string, JsonObject>;
    const timeZone = schemas.TimeZone;

    it("are the TimeZone schema in the contractor's input and in its answer", () => {
      const zoneOf = (schema: string) => (schemas[schema].properties as Record<string, JsonObject>).time_zone.$ref;
      assert.deepEqual(
        [zoneOf("ContractorInput"), zoneOf("Contractor")],
        Array(2).fill("#/components/schemas/TimeZone"),
      );
    });

    it("are a pattern that admits every zone and link this runtime's time-zone database knows, not an enum", () => {
      assert.equal(timeZone.enum, undefined);
      const pattern = new RegExp(String(timeZone.pattern), "u");
      const links = ["US/Central", "Asia/Calcutta", "Etc/GMT+5", "America/Argentina/Buenos_Aires", "UTC"];
      const refused = [...Intl.supportedValuesOf("timeZone"), ...links].filter(
        (zone) => !pattern.test(zone) || zone.length > Number(timeZone.maxLength),
      );
      assert.deepEqual(refused, []);
    });
  });
});
