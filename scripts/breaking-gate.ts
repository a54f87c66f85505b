// The breaking-change gate: openapi.yaml against the newest released contract under scripts/released/.
// A breaking change passes only when openapi.yaml's info.version is a new major whose section in CHANGELOG.md
// names it; within a major, only a correction (a request narrowed to what the server always refused) named so.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compareContracts, type ContractChange } from "./breaking-changes.js";
import type { JsonObject } from "./contract.js";

export const releasedDir = fileURLToPath(new URL("./released/", import.meta.url));

export interface GateInput {
  released: JsonObject;
  current: JsonObject;
  /** Release notes (CHANGELOG.md): a `## <version>` section per release. */
  changelog: string;
}

export interface GateResult {
  ok: boolean;
  breaking: ContractChange[];
  report: string[];
}

const version = (doc: JsonObject) => String((doc.info as JsonObject).version);
const major = (v: string) => Number(v.split(".")[0]);

function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The newest released contract's file (scripts/released/<semver>.yaml). */
export function latestReleasedPath(dir = releasedDir): string {
  const versions = readdirSync(dir)
    .map((f) => /^(\d+\.\d+\.\d+)\.yaml$/.exec(f)?.[1])
    .filter((v): v is string => Boolean(v))
    .sort(compareVersions);
  if (!versions.length) throw new Error(`no released contract in ${dir}`);
  return `${dir}${versions.at(-1)}.yaml`;
}

function changelogSection(changelog: string, v: string): string | null {
  const lines = changelog.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${v}`);
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** A request narrowed to what the server always refused: a value dropped from a request enum, or a request
 * parameter's pattern added. Only these may be named as corrections; nothing an integrator reads can be. */
const isRequestNarrowing = (id: string) =>
  /^[A-Z]+ \S+ (requestBody\/\S*\/enum\/=\S+|parameters\/\d+\/schema\/pattern)$/.test(id);

/** The ids named in the "## Corrections within <major>.x" section: request rules the server always enforced, now
 * written in the contract (no request that worked stops working). */
function corrections(changelog: string, from: string): Set<string> {
  const section = changelogSection(changelog, `Corrections within ${major(from)}.x`) ?? "";
  return new Set([...section.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter(isRequestNarrowing));
}

export function runGate(input: GateInput): GateResult {
  const from = version(input.released);
  const to = version(input.current);
  const changes = compareContracts(input.released, input.current);
  const corrected = corrections(input.changelog, from);
  const breaking = changes.filter((c) => c.type === "breaking" && !corrected.has(c.id));
  const report = [`contract ${to} against released ${from}: ${changes.length} changes, ${breaking.length} breaking`];

  let ok = breaking.length === 0;
  if (!ok && major(to) > major(from)) {
    const notes = changelogSection(input.changelog, to);
    const unlisted = notes === null ? breaking : breaking.filter((c) => !notes.includes(c.id));
    if (notes === null) report.push(`  major release ${to} has no "## ${to}" section in scripts/released/CHANGELOG.md`);
    for (const c of unlisted) report.push(`  NOT IN RELEASE NOTES ${c.id}\n            ${c.description}`);
    ok = unlisted.length === 0;
  } else {
    for (const c of breaking) report.push(`  BREAKING  ${c.id}\n            ${c.description}`);
  }
  if (!ok)
    report.push(
      `Breaking changes need a new major info.version (above ${major(from)}.x) whose "## <version>" section in scripts/released/CHANGELOG.md names each change by the id above.`,
    );
  return { ok, breaking, report };
}
