// README and its guides state facts the contract holds: how many sandbox scenarios there are and the sources an ETA
// comes from. Each is read from openapi.yaml here, so a scenario or a source added to the contract fails this until
// the prose says it too.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadContract } from "../../scripts/contract.js";
import { root } from "../helpers/server-process.js";

const readme = ["README.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)]
  .filter((file) => file.endsWith(".md"))
  .map((file) => readFileSync(join(root, file), "utf8"))
  .join("\n");
const schemas = (loadContract() as { components: { schemas: Record<string, Record<string, unknown>> } }).components
  .schemas;
const numberWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"];

describe("README's and the guides' facts", () => {
  it("counts the contract's sandbox scenarios", () => {
    const said = /\bThe (\w+)\s+scenarios take seconds/.exec(readme)?.[1];
    const scenarios = schemas.SandboxScenario.enum as string[];
    assert.equal(said, numberWords[scenarios.length], `README says "${String(said)}" for ${scenarios.length}`);
  });

  it("lists every source of an order's ETA", () => {
    const said = /\bsource: ([a-z|]+)\}/.exec(readme)?.[1].split("|");
    const eta = schemas.Eta as { properties: { source: { enum: string[] } } };
    assert.deepEqual(said, eta.properties.source.enum);
  });
});
