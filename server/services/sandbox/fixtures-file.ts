// DISPATCH_FIXTURES: reads a YAML or JSON file and checks it against the contract's SandboxFixtures schema, so a
// bad file stops the start naming the file and the JSON path of its first problem.
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import type { components } from "../../../sdk/generated/openapi.js";
import { schemaValidators } from "../../generated/validators.js";
import { looksLikeApiKey } from "../access/keys.js";

export type SandboxFixtures = components["schemas"]["SandboxFixtures"];

/** RFC 6901 pointer of a joi error path: `/contractors/2/trades/0`. */
const pointerOf = (path: (string | number)[]) =>
  path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("") || "/";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function fixturesError(file: string, problem: string): Error {
  return new Error(`DISPATCH_FIXTURES ${file}: ${problem}`);
}

function parseFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw fixturesError(file, `cannot read the file: ${messageOf(error)}`);
  }
  try {
    return extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const format = extname(file).toLowerCase() === ".json" ? "JSON" : "YAML";
    throw fixturesError(file, `not valid ${format}: ${messageOf(error).split("\n")[0]}`);
  }
}

/** A key the schema accepts may still carry a wrong checksum (a typo): the server would never match it. */
function checkKeys(file: string, fixtures: SandboxFixtures): void {
  const bad = (fixtures.keys ?? []).findIndex((entry) => !looksLikeApiKey(entry.key));
  if (bad >= 0) throw fixturesError(file, `/keys/${bad}/key has a wrong checksum: it is not a key the server issued`);
}

/** The file's fixtures, validated; throws naming the file and the first problem's JSON path. */
export function readFixtures(file: string): SandboxFixtures {
  const parsed = parseFile(file) ?? {}; // an empty file is no fixtures
  const { error, ...result } = schemaValidators.SandboxFixtures.validate(parsed, {
    abortEarly: true,
    convert: false,
    errors: { label: false },
  });
  if (error) {
    const [detail] = error.details;
    throw fixturesError(file, `${pointerOf(detail.path)} ${detail.message}`);
  }
  // Validated against the contract's SandboxFixtures schema just above (the generated joi is untyped).
  const fixtures = result.value as SandboxFixtures;
  checkKeys(file, fixtures);
  return fixtures;
}
