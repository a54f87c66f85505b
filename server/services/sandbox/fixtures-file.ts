// DISPATCH_FIXTURES: reads a YAML or JSON file and checks it against the contract's SandboxFixtures schema and the
// fixtures rules, so a bad file stops the start naming the file and its first problem.
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { extname } from "node:path";
import { parse as parseYaml } from "yaml";
import type { components } from "../../../sdk/generated/openapi.js";
import { schemaValidators } from "../../generated/validators.js";
import { looksLikeApiKey } from "../access/keys.js";
import { baseZipProblem } from "../dispatch/geo/base-zip.js";
import { availabilityProblems } from "../dispatch/working-hours.js";
import { countMessages } from "../shared/field-errors.js";

export type SandboxFixtures = components["schemas"]["SandboxFixtures"];

/** RFC 6901 pointer of a joi error path: `/contractors/2/trades/0`. */
const pointerOf = (path: (string | number)[]) =>
  path.map((part) => `/${String(part).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("") || "/";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Far above a CI sandbox's contractors and keys (1,000 and 100 at most), far below what parsing could blow up. */
export const maxFixturesBytes = 1024 * 1024;

export function fixturesError(file: string, problem: string): Error {
  return new Error(`DISPATCH_FIXTURES ${file}: ${problem}`);
}

/** The file's text; its size is checked on the open descriptor before a byte is read. */
function readCapped(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const { size } = fstatSync(fd);
    if (size > maxFixturesBytes)
      throw fixturesError(file, `the file is ${size} bytes, over the 1 MiB (${maxFixturesBytes} bytes) limit`);
    return readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("DISPATCH_FIXTURES")) throw error;
    throw fixturesError(file, `cannot read the file: ${messageOf(error)}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function parseFile(file: string): unknown {
  const text = readCapped(file);
  try {
    return extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const format = extname(file).toLowerCase() === ".json" ? "JSON" : "YAML";
    throw fixturesError(file, `not valid ${format}: ${messageOf(error).split("\n")[0]}`);
  }
}

/** The first entry that repeats an earlier one by `identity`, as `/list/i` and `/list/j`. */
function firstRepeat<T>(list: string, items: T[], identity: (item: T) => string): string | null {
  const seen = new Map<string, number>();
  for (const [index, item] of items.entries()) {
    const earlier = seen.get(identity(item));
    if (earlier !== undefined) return `/${list}/${index} repeats /${list}/${earlier}`;
    seen.set(identity(item), index);
  }
  return null;
}

/** Rules the schema cannot state: checksums, test keys only, zones and hours (working-hours.ts), bases in a state
 * served (geo/base-zip.ts), nothing twice. */
function checkEntries(file: string, fixtures: SandboxFixtures): void {
  const keys = fixtures.keys ?? [];
  const bad = keys.findIndex((entry) => !looksLikeApiKey(entry.key));
  if (bad >= 0) throw fixturesError(file, `/keys/${bad}/key has a wrong checksum: it is not a key the server issued`);
  const live = keys.findIndex((entry) => !entry.key.startsWith("dispatch_test_"));
  if (live >= 0)
    throw fixturesError(file, `/keys/${live}/key is a live key: fixtures hold test keys (dispatch_test_…) only`);
  const [unavailable] = (fixtures.contractors ?? []).flatMap((c, i) => availabilityProblems(c, `/contractors/${i}`));
  if (unavailable) throw fixturesError(file, `${unavailable.pointer} ${unavailable.message}`);
  const [misplaced] = (fixtures.contractors ?? []).flatMap((c, i) => {
    const problem = c.base_zip && baseZipProblem(c.base_zip, c.service_areas, `/contractors/${i}/base_zip`);
    return problem ? [problem] : [];
  });
  if (misplaced) throw fixturesError(file, `${misplaced.pointer} ${misplaced.message}`);
  const repeat =
    firstRepeat("keys", keys, (entry) => entry.key) ??
    firstRepeat("contractors", fixtures.contractors ?? [], (contractor) => contractor.name);
  if (repeat) throw fixturesError(file, `${repeat}: each key and each contractor name may appear once`);
}

/** The file's fixtures, validated; throws naming the file and the first problem (its JSON path when it has one). */
export function readFixtures(file: string, mode: { sandbox: boolean }): SandboxFixtures {
  if (!mode.sandbox)
    throw fixturesError(
      file,
      "fixtures load only in sandbox mode (DISPATCH_SANDBOX=1): their keys have a known plaintext and would work on any database",
    );
  const parsed = parseFile(file) ?? {}; // an empty file is no fixtures
  const { error, ...result } = schemaValidators.SandboxFixtures.validate(parsed, {
    abortEarly: true,
    convert: false,
    errors: { label: false },
    messages: countMessages,
  });
  if (error) {
    const [detail] = error.details;
    throw fixturesError(file, `${pointerOf(detail.path)} ${detail.message}`);
  }
  // Validated against the contract's SandboxFixtures schema just above (the generated joi is untyped).
  const fixtures = result.value as SandboxFixtures;
  checkEntries(file, fixtures);
  return fixtures;
}
