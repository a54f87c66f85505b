// What `dispatch attest verify` and `attest monitor` do (commands in ./attest.ts): check the log's answer offline
// (signature + inclusion proof) against a pinned key; remember the last checkpoint and prove each new one extends it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  openCheckpoint,
  parseVerifierKey,
  verifyConsistency,
  verifySealProof,
  type VerifierKey,
} from "../../sdk/attest.js";
import { configPath } from "../config.js";
import type { CliContext } from "../context.js";
import { CliError, ExitCode } from "../errors.js";
import { writeErr } from "../output.js";
import { getPath } from "../send.js";

/** What is pinned for one log (one base URL): its verifier key and the last checkpoint `monitor` saw. */
interface LogPin {
  key?: string;
  pinned_at?: string;
  checkpoint?: string;
}
/** attest.json: one pin per base URL, so talking to a second server never checks it against the first one's key. */
interface AttestState {
  logs?: Record<string, LogPin>;
}
const statePath = () => join(dirname(configPath()), "attest.json");
const readState = (): AttestState =>
  existsSync(statePath()) ? (JSON.parse(readFileSync(statePath(), "utf8")) as AttestState) : {};
function writePin(baseUrl: string, pin: LogPin): void {
  const state = readState();
  mkdirSync(dirname(statePath()), { recursive: true });
  const logs = { ...state.logs, [baseUrl]: { ...state.logs?.[baseUrl], ...pin } };
  writeFileSync(statePath(), `${JSON.stringify({ ...state, logs }, null, 2)}\n`, { mode: 0o600 });
}
const failure = (message: string) => new CliError(`attest: ${message}`, ExitCode.clientError);
const logUrl = (ctx: CliContext) => ctx.settings["base-url"].replace(/\/+$/, "");

/** A signature failure names the key it checked against and how to pin another one. */
function keyFailure(ctx: CliContext, error: Error, keyFlag: string | undefined): CliError {
  if (!error.message.includes("signature")) return failure(error.message);
  const where = keyFlag
    ? "the key given with --key"
    : `the key pinned for ${logUrl(ctx)} in ${statePath()} (pinned ${readState().logs?.[logUrl(ctx)]?.pinned_at ?? "earlier"})`;
  return new CliError(
    `attest: ${error.message}: ${where} does not sign this log's checkpoints`,
    ExitCode.clientError,
    null,
    [
      "  The log's key changed, or this is not the log that was pinned. Compare 'dispatch attest key' with the key",
      "  the operator publishes; if it is right, pass it with --key, or re-pin: 'dispatch attest pin --key <key>'",
      `  (or 'dispatch attest pin' for the key ${logUrl(ctx)} serves now).`,
    ],
  );
}

/** A text answer (a key, a checkpoint note) through the SDK, so -H, auth and exit codes match every other command. */
async function getText(ctx: CliContext, path: string): Promise<string> {
  return String(await getPath(ctx, path));
}

async function getJson<T>(ctx: CliContext, path: string, query: Record<string, unknown> = {}): Promise<T> {
  const body = await getPath(ctx, path, query);
  if (typeof body !== "object" || body === null) throw failure(`GET ${path}: the answer is not a JSON object`);
  return body as T;
}

/** The key: --key, else the one pinned for this base URL; a first use pins the log's key and says where. */
async function pinnedKey(ctx: CliContext, flag: string | undefined): Promise<VerifierKey> {
  if (flag) return parseVerifierKey(flag);
  const pinned = readState().logs?.[logUrl(ctx)]?.key;
  if (pinned) return parseVerifierKey(pinned);
  const served = (await getText(ctx, "/api/attest/key")).trim();
  writePin(logUrl(ctx), { key: served, pinned_at: new Date().toISOString() });
  writeErr(`pinned log key ${served} for ${logUrl(ctx)} (first use) in ${statePath()}\n`);
  return parseVerifierKey(served);
}

export async function verifyOffline(ctx: CliContext, seal: string, keyFlag: string | undefined) {
  const key = await pinnedKey(ctx, keyFlag);
  const result = await getJson<Parameters<typeof verifySealProof>[1] & { status: string }>(
    ctx,
    `/api/attest/verify/${encodeURIComponent(seal)}`,
  );
  if (result.status !== "valid") throw failure(`seal ${seal} is ${result.status}`);
  try {
    const checkpoint = verifySealProof(seal, result, key);
    return {
      seal,
      status: "valid",
      verified_offline: true,
      tree_size: checkpoint.treeSize,
      leaf_index: result.leaf_index,
    };
  } catch (error) {
    throw keyFailure(ctx, error as Error, keyFlag);
  }
}

/** Pins --key, else the key the log serves now, for this base URL; a new key forgets the last checkpoint it saw. */
export async function pin(ctx: CliContext, keyFlag: string | undefined) {
  const key = keyFlag ?? (await getText(ctx, "/api/attest/key")).trim();
  parseVerifierKey(key);
  const previous = readState().logs?.[logUrl(ctx)];
  const changed = previous?.key !== key;
  writePin(logUrl(ctx), { key, pinned_at: new Date().toISOString(), ...(changed && { checkpoint: undefined }) });
  return { base_url: logUrl(ctx), key, replaced: previous?.key !== undefined && changed, file: statePath() };
}

function openWith(ctx: CliContext, note: string, key: VerifierKey, keyFlag: string | undefined) {
  try {
    return openCheckpoint(note, key);
  } catch (error) {
    throw keyFailure(ctx, error as Error, keyFlag);
  }
}

export async function monitor(ctx: CliContext, keyFlag: string | undefined) {
  const key = await pinnedKey(ctx, keyFlag);
  const latest = openWith(ctx, await getText(ctx, "/api/attest/checkpoint"), key, keyFlag);
  const remembered = readState().logs?.[logUrl(ctx)]?.checkpoint;
  if (remembered) {
    const last = openWith(ctx, remembered, key, keyFlag);
    if (latest.treeSize < last.treeSize)
      throw failure(`FORK OR ROLLBACK: tree shrank from ${last.treeSize} to ${latest.treeSize}`);
    const proof =
      latest.treeSize === last.treeSize || last.treeSize === 0
        ? { hashes: [] as string[] }
        : await getJson<{ hashes: string[] }>(ctx, "/api/attest/consistency", {
            first: last.treeSize,
            second: latest.treeSize,
          });
    const hashes = proof.hashes.map((h) => Buffer.from(h, "base64"));
    const ok =
      last.treeSize === 0 || verifyConsistency(last.treeSize, latest.treeSize, hashes, last.rootHash, latest.rootHash);
    if (!ok) throw failure(`FORK OR REWRITE: checkpoint ${latest.treeSize} does not extend ${last.treeSize}`);
  }
  writePin(logUrl(ctx), { checkpoint: latest.note });
  return { tree_size: latest.treeSize, root_hash: latest.rootHash.toString("base64"), consistent_with_previous: true };
}
