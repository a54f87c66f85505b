// `npm run contract:breaking`: fails when openapi.yaml breaks the released contract (see breaking-gate.ts).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { latestReleasedPath, releasedDir, runGate } from "./breaking-gate.js";
import { loadContract, type JsonObject } from "./contract.js";

const result = runGate({
  released: parse(readFileSync(latestReleasedPath(), "utf8")) as JsonObject,
  current: loadContract(),
  changelog: readFileSync(`${releasedDir}CHANGELOG.md`, "utf8"),
});
for (const line of result.report) (result.ok ? console.log : console.error)(line);
if (!result.ok) process.exit(1);
