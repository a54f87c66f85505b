// `dispatch attest verify <seal>` checks the log's answer offline (signature + inclusion proof) against a pinned key;
// `dispatch attest monitor` remembers the last checkpoint and proves each new one extends it; `dispatch attest pin`
// (re-)pins the key. Keys and checkpoints are kept per base URL (./attest-verify.ts).
import type { Command } from "commander";
import { addExamples } from "../help.js";
import type { RunAction } from "./operation.js";

/** Replaces the generated `attest verify` action with the offline check and adds `attest monitor`. */
export function addAttestCommands(root: Command, run: RunAction): void {
  const attest = root.commands.find((c) => c.name() === "attest");
  const verify = attest?.commands.find((c) => c.name() === "verify");
  if (!attest || !verify) return;
  verify.option(
    "--key <verifier-key>",
    "log key to check against (default: the one pinned for the base URL in the config directory)",
  );
  verify.action(async (seal: string) =>
    run(verify, async (ctx) =>
      (await import("./attest-verify.js")).verifyOffline(ctx, seal, verify.opts<{ key?: string }>().key),
    ),
  );
  const watch = attest
    .command("monitor")
    .summary("Check the log only grows: remember the last checkpoint, prove the new one extends it")
    .option(
      "--key <verifier-key>",
      "log key to check against (default: the one pinned for the base URL in the config directory)",
    );
  addExamples(watch, ["dispatch attest monitor", 'dispatch attest monitor --key "$LOG_KEY"']);
  const pin = attest
    .command("pin")
    .summary("Pin the log's verifier key for this base URL (--key, else the key it serves now)")
    .option("--key <verifier-key>", "the key to pin, e.g. the one the operator publishes");
  addExamples(pin, ['dispatch attest pin --key "$LOG_KEY"', "dispatch attest pin"]);
  pin.action(async () =>
    run(pin, async (ctx) => (await import("./attest-verify.js")).pin(ctx, pin.opts<{ key?: string }>().key)),
  );
  watch.action(async () =>
    run(watch, async (ctx) => (await import("./attest-verify.js")).monitor(ctx, watch.opts<{ key?: string }>().key)),
  );
}
