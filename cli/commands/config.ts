// `dispatch config set|get|unset|list`: named profiles in the config file.
import type { Command } from "commander";
import { configKeys } from "../config-keys.js";
import { addExamples } from "../help.js";
import { printText } from "../output.js";
import { ensureGroup } from "./groups.js";
import type { RunAction } from "./operation.js";

const keyList = Object.keys(configKeys).join(", ");

type ProfileOf = (command: Command) => string | undefined;

export function addConfigCommands(root: Command, run: RunAction): void {
  const config = ensureGroup(root, ["config"]);
  const profileOf: ProfileOf = (command) => command.optsWithGlobals<{ profile?: string }>().profile;
  addSetCommand(config, run, profileOf);
  addGetCommand(config, run, profileOf);
  addUnsetCommand(config, run, profileOf);
  addListCommand(config, run);
}

function addSetCommand(config: Command, run: RunAction, profileOf: ProfileOf): void {
  const set = config
    .command("set")
    .summary("Set a profile value")
    .description(`Set a profile value. Keys: ${keyList}.`);
  set.argument("<key>", `one of: ${keyList}`).argument("<value>", "the value to store for the key in the profile");
  addExamples(set, [
    "dispatch config set base-url http://127.0.0.1:4010 --profile mock",
    'dispatch config set api-key "$DISPATCH_API_KEY"',
  ]);
  set.action(async (key: string, value: string) =>
    run(
      set,
      async () => {
        const { profileName, setConfigValue, configPath } = await import("../config.js");
        setConfigValue(profileName(profileOf(set)), key, value);
        return { profile: profileName(profileOf(set)), key, saved: true, file: configPath() };
      },
      { settings: false },
    ),
  );
}

function addGetCommand(config: Command, run: RunAction, profileOf: ProfileOf): void {
  const get = config.command("get").summary("Print one profile value").argument("<key>", `one of: ${keyList}`);
  addExamples(get, ["dispatch config get base-url --profile mock"]);
  get.action(async (key: string) =>
    run(
      get,
      async () => {
        const { getConfigValue, profileName } = await import("../config.js");
        const value = getConfigValue(profileName(profileOf(get)), key);
        if (value !== undefined) printText(value);
        return undefined;
      },
      { settings: false },
    ),
  );
}

function addUnsetCommand(config: Command, run: RunAction, profileOf: ProfileOf): void {
  const unset = config
    .command("unset")
    .summary("Remove a profile value (the environment or default applies again)")
    .argument("<key>", `one of: ${keyList}`);
  addExamples(unset, ["dispatch config unset base-url --profile mock"]);
  unset.action(async (key: string) =>
    run(
      unset,
      async () => {
        const { profileName, unsetConfigValue, configPath } = await import("../config.js");
        const profile = profileName(profileOf(unset));
        return { profile, key, removed: unsetConfigValue(profile, key), file: configPath() };
      },
      { settings: false },
    ),
  );
}

function addListCommand(config: Command, run: RunAction): void {
  const list = config.command("list").summary("Print all profiles (secrets masked)");
  addExamples(list, ["dispatch config list --output yaml"]);
  list.action(async () => run(list, async () => (await import("../config.js")).listProfiles(), { settings: false }));
}
