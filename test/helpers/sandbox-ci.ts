// The README's "Test your integration in CI" recipe, as the tests run it: its shell steps and a consumer's SDK test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { root } from "./server-process.js";

/** The ```sh blocks between `<!-- sandbox-ci:start -->` and `<!-- sandbox-ci:end -->` of README.md. */
export function sandboxCiSteps(markdown = readFileSync(join(root, "README.md"), "utf8")): string {
  const section = /<!-- sandbox-ci:start -->([\s\S]*?)<!-- sandbox-ci:end -->/.exec(markdown)?.[1];
  if (section === undefined) throw new Error("README.md has no sandbox-ci markers");
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "").join("\n");
}

/** The recipe's GitHub Actions job (the ```yaml block before the markers): its env and the `run:` steps before the sandbox's. */
export function sandboxCiJob(markdown = readFileSync(join(root, "README.md"), "utf8")): {
  env: Record<string, string>;
  runs: string[];
} {
  const before = markdown.slice(0, markdown.indexOf("<!-- sandbox-ci:start -->"));
  const block = [...before.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].at(-1)?.[1];
  if (block === undefined) throw new Error("README.md has no CI job before the sandbox-ci markers");
  const { jobs } = parse(block) as {
    jobs: Record<string, { env?: Record<string, string>; steps: { run?: string }[] }>;
  };
  const [job] = Object.values(jobs);
  const runs = job.steps.flatMap((step) => (step.run === undefined || step.run.includes("\n") ? [] : [step.run]));
  return { env: job.env ?? {}, runs };
}

/** A consumer's test (plain ESM, as an integrator writes it): quote, order, then reset through the installed SDK. */
export const consumerTest = `
import assert from "node:assert/strict";
import { createDispatchClient } from "@dispatch/sdk";
const dispatch = createDispatchClient({ baseUrl: process.env.DISPATCH_BASE_URL, apiKey: process.env.DISPATCH_API_KEY });
const job = { trade: "plumbing", location: { state: "TX", zip: "78701" }, urgency: "urgent", description: "Leak." };
const quote = await dispatch.POST("/api/dispatch/v1/quote", { body: job });
assert.equal(quote.response.status, 200);
const order = await dispatch.POST("/api/dispatch/v1/order", { body: { ...job, reference_id: "ci-1" } });
assert.equal(order.response.status, 201);
const reset = await dispatch.POST("/api/dispatch/v1/sandbox/reset");
assert.equal(reset.response.status, 200);
assert.equal(reset.data.removed.orders, 1);
console.log("consumer tests passed");
`;
