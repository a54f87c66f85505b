#!/usr/bin/env node
// `dispatch-server`: the reference server. `start` (the default) serves; `migrate` and `purge-audit` run once and
// exit. Every configuration variable is also a flag (see flags.ts); the server's modules load only for the command.
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { enableCompileCache } from "../compile-cache.js";
import { addConfigFlags, envWithFlags } from "./flags.js";

/** This package's package.json: two levels up from dist/server/bin, one from server/bin in a clone. */
function packageVersion(): string {
  for (const up of ["../../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: string; version: string };
      if (pkg.name === "@dispatch/server") return pkg.version;
    } catch {
      // not this level
    }
  }
  return "0.0.0";
}

/** The build records the commit (or contract hash) it was made from; a packaged server has no git to ask. */
function withBuildHash(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.BUILD_HASH) return env;
  try {
    const info = JSON.parse(readFileSync(new URL("../../build-info.json", import.meta.url), "utf8")) as {
      buildHash: string;
    };
    return { ...env, BUILD_HASH: info.buildHash };
  } catch {
    return env;
  }
}

const examples = `
Examples:
  dispatch-server start --port 0 --database-url pglite://memory
  dispatch-server migrate --database-url pglite://./.data
  dispatch-server purge-audit --database-url pglite://./.data

Every flag also reads from its environment variable (--port <-> PORT, --database-url <-> DATABASE_URL);
a flag given wins. \`dispatch-server start --help\` lists them all.`;

async function runOnce(env: NodeJS.ProcessEnv, task: "migrate" | "purge-audit"): Promise<void> {
  const [{ loadConfig }, { createDb }, { migrate }] = await Promise.all([
    import("../config.js"),
    import("../db/knex.js"),
    import("../db/migrate.js"),
  ]);
  const db = createDb(loadConfig(env).databaseUrl);
  try {
    await migrate(db);
    if (task === "migrate") {
      const [{ count }] = await db("knex_migrations").count({ count: "*" });
      console.log(`database migrated: ${String(count)} migrations applied`);
    } else {
      const { purgeExpiredAudit } = await import("../db/retention.js");
      console.log(`audit retention: ${await purgeExpiredAudit(db)} expired records purged`);
    }
  } finally {
    await db.destroy();
  }
}

export function createProgram(): Command {
  const program = new Command("dispatch-server")
    .description("Field-service dispatch reference server (Hapi, PGlite or PostgreSQL)")
    .version(packageVersion())
    .addHelpText("after", examples);
  addConfigFlags(
    program.command("start", { isDefault: true }).description("serve the API (the default command)"),
  ).action(async (options: Record<string, unknown>) => {
    enableCompileCache();
    const { start } = await import("../index.js");
    await start(withBuildHash(envWithFlags(options)));
  });
  addConfigFlags(program.command("migrate").description("apply the database migrations and exit")).action(
    (options: Record<string, unknown>) => runOnce(envWithFlags(options), "migrate"),
  );
  addConfigFlags(
    program.command("purge-audit").description("purge audit records past the 7-year retention and exit"),
  ).action((options: Record<string, unknown>) => runOnce(envWithFlags(options), "purge-audit"));
  return program;
}

createProgram()
  .parseAsync()
  .catch((error: unknown) => {
    console.error(`dispatch-server: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
