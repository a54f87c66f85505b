// Applies the fixtures and readies the sandbox key once the database is open.
import type { Config } from "../../config.js";
import type { KeyService } from "../access/keys.js";
import type { ContractorService } from "../dispatch/contractors.js";
import type { SandboxFixtures } from "./fixtures-file.js";

export interface SandboxKey {
  key: string;
  account: string;
  /** True when no DISPATCH_SANDBOX_KEY was given and the server minted this one (it is printed once). */
  generated: boolean;
}

interface Deps {
  keys: KeyService;
  contractors: ContractorService;
}

/** Contractors join the pool once per database (a restart on the same database does not add them again). */
async function loadContractors(contractors: ContractorService, inputs: SandboxFixtures["contractors"] = []) {
  const existing = new Set((await contractors.list({ limit: 10_000 })).items.map((c) => c.name));
  for (const input of inputs) if (!existing.has(input.name)) await contractors.create(input);
}

export async function applyFixtures(deps: Deps, fixtures: SandboxFixtures): Promise<void> {
  await loadContractors(deps.contractors, fixtures.contractors);
  for (const { key, account, label, scopes } of fixtures.keys ?? [])
    await deps.keys.register(key, { account, label: label ?? "fixtures", scopes });
}

/** Sandbox mode's test key: DISPATCH_SANDBOX_KEY stored as any issued key, or a new one; null outside the sandbox. */
export async function readySandboxKey(deps: Deps, config: Config): Promise<SandboxKey | null> {
  if (!config.sandbox) return null;
  const account = config.sandboxAccount;
  if (config.sandboxKey) {
    await deps.keys.register(config.sandboxKey, { account, label: "DISPATCH_SANDBOX_KEY" });
    return { key: config.sandboxKey, account, generated: false };
  }
  const { key } = await deps.keys.issue({ account, environment: "test", label: "sandbox (generated at start)" });
  return { key, account, generated: true };
}
