// Everything a command needs besides its own arguments: settings, output format and extra headers.
import type { Command } from "commander";
import { resolveSettings, type ResolvedSettings } from "./config.js";
import { echoed, usageError } from "./errors.js";
import { resolveFormat, type OutputFormat } from "./output.js";

export interface CliContext {
  settings: ResolvedSettings;
  format: OutputFormat;
  /** Errors as a JSON object on stderr (`--output json` given explicitly, by env or profile). */
  jsonErrors: boolean;
  headers: Record<string, string>;
  retries: number;
  /** `--query`: JMESPath applied to the result before printing. */
  query: string | undefined;
  /** `--paginate` (list commands and `api`): every page's items as one array. */
  paginate: boolean;
  /** `--dry-run`: print the request as curl, send nothing. */
  dryRun: boolean;
  showSecrets: boolean;
  version: string;
}

interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  token?: string;
  adminToken?: string;
  profile?: string;
  output?: string;
  header?: string[];
  retries?: string;
  query?: string;
  paginate?: boolean;
  dryRun?: boolean;
  showSecrets?: boolean;
}

export function parseHeaders(values: readonly string[] = []): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(":");
    if (colon < 1) throw usageError(`--header must look like 'Name: value' (got ${echoed(value)})`);
    headers[value.slice(0, colon).trim().toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}

function parseRetries(value: string | undefined): number {
  const retries = Number(value ?? "0");
  if (!Number.isInteger(retries) || retries < 0 || retries > 10)
    throw usageError(`--retries must be an integer from 0 to 10 (got ${echoed(value)})`);
  return retries;
}

/** `useProfile: false` for the config commands, which must work before the profile exists. */
export function contextFrom(command: Command, version: string, useProfile = true): CliContext {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const flags = {
    "base-url": opts.baseUrl,
    "api-key": opts.apiKey,
    token: opts.token,
    "admin-token": opts.adminToken,
    output: opts.output,
  };
  const settings = resolveSettings(flags, opts.profile, useProfile);
  const format = resolveFormat(settings.output);
  return {
    settings,
    format,
    jsonErrors: settings.output === "json" || settings.output === "ndjson",
    headers: parseHeaders(opts.header),
    retries: parseRetries(opts.retries),
    version,
    query: opts.query,
    paginate: opts.paginate === true,
    dryRun: opts.dryRun === true,
    showSecrets: opts.showSecrets === true,
  };
}
