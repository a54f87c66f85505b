// Intermediate command words (`admin`, `admin keys`, `orders` …) and their one-line descriptions: the contract's
// `x-cli-groups` for the operations' groups, and here the groups of the commands the CLI adds itself.
import type { Command } from "commander";
import { groups } from "../generated/operations.js";

const cliGroups: Readonly<Record<string, string>> = {
  config: "Named profiles in $DISPATCH_CONFIG or ~/.config/dispatch/config.json (mode 0600)",
};

/** What the group `path` is for; a group described nowhere fails its --help test rather than show its own name. */
const describeGroup = (path: string) => groups[path] ?? cliGroups[path] ?? "";

/** Finds or creates the command for `words` under `root`, creating groups on the way. */
export function ensureGroup(root: Command, words: readonly string[]): Command {
  let parent = root;
  words.forEach((word, i) => {
    const existing = parent.commands.find((c) => c.name() === word);
    parent = existing ?? parent.command(word).description(describeGroup(words.slice(0, i + 1).join(" ")));
  });
  return parent;
}
