// README's configuration variable table, rendered from server/config.ts's definition between its markers, so the
// table cannot drift from what the server validates and `dispatch-server start --help` prints.
import { markdownTable } from "../server/config-variables.js";
import { variables } from "../server/config.js";

const start = "<!-- config-variables:start -->\n\n";
const end = "\n\n<!-- config-variables:end -->";

/** `readme` with the text between the markers replaced by the table. */
export function renderConfigTable(readme: string): string {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`README.md: the markers ${start.trim()} and ${end.trim()} are missing`);
  return readme.slice(0, from + start.length) + markdownTable(variables) + readme.slice(to);
}
