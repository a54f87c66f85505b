// The CI recipe of docs/ci-and-sandbox.md, as the tests run it: the job, its shell steps, and the integrator's test
// file those steps run (the scenario table), each taken from the guide as written.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { markedBlocks } from "./readme-blocks.js";
import { root } from "./server-process.js";

/** The guide that holds the recipe, relative to the repository's root. */
export const sandboxCiGuide = "docs/ci-and-sandbox.md";
const guide = () => readFileSync(join(root, sandboxCiGuide), "utf8");

/** The ```sh blocks between `<!-- sandbox-ci:start -->` and `<!-- sandbox-ci:end -->` of the guide. */
export function sandboxCiSteps(markdown = guide()): string {
  return markedBlocks(markdown, "sandbox-ci").join("\n");
}

/** The integrator's test file: the ```js block between the `sandbox-ci-test` markers, at the path the steps'
 * `node --test` line runs (relative to the project). */
export function sandboxCiTestFile(markdown = guide()): { path: string; source: string } {
  const path = /^node --test (\S+)$/m.exec(sandboxCiSteps(markdown))?.[1];
  if (path === undefined) throw new Error(`${sandboxCiGuide}'s sandbox-ci steps run no \`node --test <file>\``);
  const [source, ...more] = markedBlocks(markdown, "sandbox-ci-test", "js");
  if (source === undefined || more.length > 0)
    throw new Error(`${sandboxCiGuide}'s sandbox-ci-test markers hold not one js block`);
  return { path, source };
}

/** The recipe's GitHub Actions job (the ```yaml block before the markers): its env and the `run:` steps before the sandbox's. */
export function sandboxCiJob(markdown = guide()): {
  env: Record<string, string>;
  runs: string[];
} {
  const before = markdown.slice(0, markdown.indexOf("<!-- sandbox-ci:start -->"));
  const block = [...before.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].at(-1)?.[1];
  if (block === undefined) throw new Error(`${sandboxCiGuide} has no CI job before the sandbox-ci markers`);
  const { jobs } = parse(block) as {
    jobs: Record<string, { env?: Record<string, string | number | boolean>; steps: { run?: string }[] }>;
  };
  const [job] = Object.values(jobs);
  const runs = job.steps.flatMap((step) => (step.run === undefined || step.run.includes("\n") ? [] : [step.run]));
  // Actions hands every env value to the steps as a string (`1000`, not a number)
  const env = Object.fromEntries(Object.entries(job.env ?? {}).map(([name, value]) => [name, String(value)]));
  return { env, runs };
}
