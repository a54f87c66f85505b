// The configuration variable table of docs/operating.md, rendered from server/config.ts's definition between its
// markers, so the table cannot drift from what the server validates and `dispatch-server start --help` prints.
import { markdownTable } from "../server/config-variables.js";
import { variables } from "../server/config.js";

const start = "<!-- config-variables:start -->\n\n";
const end = "\n\n<!-- config-variables:end -->";

/** The guide that holds the table, relative to the repository's root. */
export const configTableFile = "docs/operating.md";

/** `markdown` with the text between the markers replaced by the table. */
export function renderConfigTable(markdown: string): string {
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end, from);
  if (from < 0 || to < 0)
    throw new Error(`${configTableFile}: the markers ${start.trim()} and ${end.trim()} are missing`);
  return markdown.slice(0, from + start.length) + markdownTable(variables) + markdown.slice(to);
}

/** The table's rows as `markdown` holds them between the markers (one line each). */
export function configTableRows(markdown: string): string[] {
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end, from);
  if (from < 0 || to < 0)
    throw new Error(`${configTableFile}: the markers ${start.trim()} and ${end.trim()} are missing`);
  return markdown
    .slice(from + start.length, to)
    .split("\n")
    .filter((line) => line.startsWith("| `"));
}
