// `dispatch config set|get|list`: named profiles in the config file.
import type { Command } from "commander";
import { configKeys } from "../config-keys.js";
import { examplesHelp } from "../help.js";
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
  addListCommand(config, run);
}

function addSetCommand(config: Command, run: RunAction, profileOf: ProfileOf): void {
  const set = config
    .command("set")
    .summary("Set a profile value")
    .description(`Set a profile value. Keys: ${keyList}.`);
  set.argument("<key>", `one of: ${keyList}`).argument("<value>");
  set.addHelpText(
    "after",
    examplesHelp([
      "dispatch config set base-url http://127.0.0.1:4010 --profile mock",
      "dispatch config set api-key dispatch_test_abc",
    ]),
  );
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
  get.addHelpText("after", examplesHelp(["dispatch config get base-url --profile mock"]));
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

function addListCommand(config: Command, run: RunAction): void {
  const list = config.command("list").summary("Print all profiles (secrets masked)");
  list.addHelpText("after", examplesHelp(["dispatch config list --output yaml"]));
  list.action(async () => run(list, async () => (await import("../config.js")).listProfiles(), { settings: false }));
}
