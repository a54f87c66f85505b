// The guides in the repository's docs/ that `dispatch --help` points at, one line each: the help is where a CLI user
// starts, and the guides are where the rest of the product is explained.

/** Each guide's file name under docs/ and what it is for (a test checks the list against docs/). */
export const guides: readonly (readonly [file: string, about: string])[] = [
  ["customers.md", "keys, quotes, orders, events, webhooks; this CLI, the SDK"],
  ["contractors.md", "offers, reporting a job, price revisions"],
  ["agents.md", "MCP, A2A, discovery, self-serve OAuth"],
  ["ci-and-sandbox.md", "the sandbox, its test clock, a CI job"],
  ["operating.md", "running the server, configuration, metrics"],
  ["security.md", "environments, scopes, limits, the audit trail"],
  ["contract-evolution.md", "versions, breaking changes, deprecation"],
  ["architecture.md", "layout, generation, the test suite"],
  ["decisions.md", "why things are as they are, with measurements"],
];

/** The root help's "Guides" paragraph. */
export function guidesHelp(): string {
  const width = Math.max(...guides.map(([file]) => file.length));
  const lines = guides.map(([file, about]) => `  ${file.padEnd(width)}  ${about}`);
  return `Guides, in docs/ of the dispatch repository (the server's /docs has the API reference):\n${lines.join("\n")}\n`;
}
