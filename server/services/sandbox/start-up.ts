// Applies the fixtures and readies the sandbox key once the database is open.
import type { Config } from "../../config.js";
import type { ChangeFeed } from "../../db/change-feed.js";
import type { Db } from "../../db/knex.js";
import { createKeyService, type KeyService } from "../access/keys.js";
import { createContractorService, type ContractorService } from "../dispatch/contractors.js";
import { fixturesError, type SandboxFixtures } from "./fixtures-file.js";

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

/** The whole file or nothing, in one transaction; a failure names the file. */
export async function applyFixtures(
  deps: { db: Db; changes: ChangeFeed | null },
  fixtures: { file: string; content: SandboxFixtures },
): Promise<void> {
  const { db, changes } = deps;
  const { file, content } = fixtures;
  try {
    await db.transaction(async (trx) => {
      await loadContractors(createContractorService(trx), content.contractors);
      const keys = createKeyService(trx);
      for (const { key, account, label, scopes } of content.keys ?? [])
        await keys.register(key, { account, label: label ?? "fixtures", scopes });
    });
  } catch (error) {
    throw fixturesError(file, error instanceof Error ? error.message : String(error));
  }
  changes?.announce("contractors");
  changes?.announce("api_keys");
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
