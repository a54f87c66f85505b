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
import { noticeDeprecation } from "../../sdk/deprecation.js";
import { configPath } from "../config.js";
import type { CliContext } from "../context.js";
import { CliError, ExitCode } from "../errors.js";
import { writeErr } from "../output.js";
import { reportDeprecation } from "../send.js";

interface AttestState {
  key?: string;
  checkpoint?: string;
}
const statePath = () => join(dirname(configPath()), "attest.json");
const readState = (): AttestState =>
  existsSync(statePath()) ? (JSON.parse(readFileSync(statePath(), "utf8")) as AttestState) : {};
function writeState(state: AttestState): void {
  mkdirSync(dirname(statePath()), { recursive: true });
  writeFileSync(statePath(), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
const failure = (message: string) => new CliError(`attest: ${message}`, ExitCode.clientError);

async function getText(ctx: CliContext, path: string): Promise<string> {
  const url = ctx.settings["base-url"] + path;
  const response = await fetch(url, { headers: ctx.headers });
  noticeDeprecation("GET", url, response, reportDeprecation);
  if (!response.ok) throw new CliError(`GET ${path}: HTTP ${response.status}`, ExitCode.clientError);
  return response.text();
}

/** The pinned key: --key, else the one pinned earlier; a first run pins the log's key and says so. */
async function pinnedKey(ctx: CliContext, flag: string | undefined): Promise<VerifierKey> {
  const state = readState();
  if (flag) return parseVerifierKey(flag);
  if (state.key) return parseVerifierKey(state.key);
  const served = (await getText(ctx, "/api/attest/key")).trim();
  writeState({ ...state, key: served });
  writeErr(`pinned log key ${served} (first use) in ${statePath()}\n`);
  return parseVerifierKey(served);
}

export async function verifyOffline(ctx: CliContext, seal: string, keyFlag: string | undefined) {
  const key = await pinnedKey(ctx, keyFlag);
  const result = JSON.parse(await getText(ctx, `/api/attest/verify/${encodeURIComponent(seal)}`)) as Parameters<
    typeof verifySealProof
  >[1] & { status: string };
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
    throw failure((error as Error).message);
  }
}

export async function monitor(ctx: CliContext, keyFlag: string | undefined) {
  const key = await pinnedKey(ctx, keyFlag);
  const latest = openCheckpoint(await getText(ctx, "/api/attest/checkpoint"), key);
  const state = readState();
  if (state.checkpoint) {
    const last = openCheckpoint(state.checkpoint, key);
    if (latest.treeSize < last.treeSize)
      throw failure(`FORK OR ROLLBACK: tree shrank from ${last.treeSize} to ${latest.treeSize}`);
    const proof =
      latest.treeSize === last.treeSize || last.treeSize === 0
        ? { hashes: [] as string[] }
        : (JSON.parse(
            await getText(ctx, `/api/attest/consistency?first=${last.treeSize}&second=${latest.treeSize}`),
          ) as { hashes: string[] });
    const hashes = proof.hashes.map((h) => Buffer.from(h, "base64"));
    const ok =
      last.treeSize === 0 || verifyConsistency(last.treeSize, latest.treeSize, hashes, last.rootHash, latest.rootHash);
    if (!ok) throw failure(`FORK OR REWRITE: checkpoint ${latest.treeSize} does not extend ${last.treeSize}`);
  }
  writeState({ ...state, checkpoint: latest.note });
  return { tree_size: latest.treeSize, root_hash: latest.rootHash.toString("base64"), consistent_with_previous: true };
}
