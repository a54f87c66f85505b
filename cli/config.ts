// Named profiles in a JSON config file (mode 0600), and how flags, environment and profile combine.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { configKeys, type ConfigKey } from "./config-keys.js";
import { usageError } from "./errors.js";
import { currentIo } from "./io.js";

type Profile = Partial<Record<ConfigKey, string>>;
interface ConfigFile {
  profiles: Record<string, Profile>;
}

export const defaultBaseUrl = "http://127.0.0.1:3000";
const secretKeys = new Set<ConfigKey>(["api-key", "token", "admin-token"]);

export function configPath(env: NodeJS.ProcessEnv = currentIo().env): string {
  if (env.DISPATCH_CONFIG) return env.DISPATCH_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "dispatch", "config.json");
}

export function assertConfigKey(key: string): asserts key is ConfigKey {
  if (!(key in configKeys))
    throw usageError(`unknown config key "${key}" (one of ${Object.keys(configKeys).join(", ")})`);
}

export function readConfig(path = configPath()): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<ConfigFile>;
    return { profiles: parsed.profiles ?? {} };
  } catch (err) {
    throw usageError(`cannot read config file ${path}: ${(err as Error).message}`);
  }
}

export function writeConfig(config: ConfigFile, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function profileName(flag: string | undefined, env: NodeJS.ProcessEnv = currentIo().env): string {
  return flag ?? env.DISPATCH_PROFILE ?? "default";
}

/** Refuses values that could only fail later as a "network error": a base URL must be http(s), credentials ASCII. */
export function assertSettingValue(key: ConfigKey, value: string, source: string): void {
  if (key === "base-url") {
    const scheme = URL.canParse(value) ? new URL(value).protocol : null;
    if (scheme !== "http:" && scheme !== "https:")
      throw usageError(`${source}: "${value}" is not an http(s) URL (e.g. ${defaultBaseUrl})`);
  }
  if (secretKeys.has(key) && !/^[\x21-\x7e]+$/.test(value))
    throw usageError(`${source}: must be printable ASCII without spaces (it is sent as an HTTP header)`);
}

export function setConfigValue(profile: string, key: string, value: string): void {
  assertConfigKey(key);
  assertSettingValue(key, value, `config key ${key}`);
  const config = readConfig();
  config.profiles[profile] = { ...config.profiles[profile], [key]: value };
  writeConfig(config);
}

/** Removes a key from a profile; answers whether it was set. The profile stays, possibly empty. */
export function unsetConfigValue(profile: string, key: string): boolean {
  assertConfigKey(key);
  const config = readConfig();
  const current = config.profiles[profile];
  if (current?.[key] === undefined) return false;
  const { [key]: _removed, ...rest } = current;
  config.profiles[profile] = rest;
  writeConfig(config);
  return true;
}

export function getConfigValue(profile: string, key: string): string | undefined {
  assertConfigKey(key);
  return readConfig().profiles[profile]?.[key];
}

/** All profiles, secrets masked to their last four characters. */
export function listProfiles(): Record<string, Profile> {
  const mask = (key: string, value: string) => (secretKeys.has(key as ConfigKey) ? `****${value.slice(-4)}` : value);
  const { profiles } = readConfig();
  return Object.fromEntries(
    Object.entries(profiles).map(([name, profile]) => [
      name,
      Object.fromEntries(Object.entries(profile).map(([k, v]) => [k, mask(k, v)])),
    ]),
  );
}

export type ResolvedSettings = Profile & { "base-url": string };

/** Flag, then environment variable, then the profile, then the default. */
export function resolveSettings(
  flags: Profile,
  profileFlag: string | undefined,
  useProfile = true,
  env: NodeJS.ProcessEnv = currentIo().env,
): ResolvedSettings {
  const name = profileName(profileFlag, env);
  const profile = useProfile ? readConfig(configPath(env)).profiles[name] : undefined;
  if (useProfile && !profile && (profileFlag || env.DISPATCH_PROFILE))
    throw usageError(`no profile "${name}" in ${configPath(env)}`);
  const settings: Profile = {};
  for (const [key, variable] of Object.entries(configKeys) as [ConfigKey, string][]) {
    const [value, source] =
      flags[key] !== undefined
        ? [flags[key], `--${key}`]
        : env[variable] !== undefined
          ? [env[variable], variable]
          : [profile?.[key], `${key} in profile "${name}"`];
    if (value === undefined || value === "") continue;
    assertSettingValue(key, value, source);
    settings[key] = value;
  }
  return { ...settings, "base-url": settings["base-url"] ?? defaultBaseUrl };
}
