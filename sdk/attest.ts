// Offline verification of the audit log: signed-note checkpoints (Ed25519), RFC 9162 inclusion and consistency
// proofs. Plain functions over node:crypto only, so the SDK needs no server code and no extra dependency.
import { createHash, createPublicKey, verify as verifySignature } from "node:crypto";

export interface VerifierKey {
  name: string;
  keyId: Buffer;
  publicKey: Buffer;
}
export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
  /** The signed note as received. */
  note: string;
}

const sha256 = (...parts: Buffer[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest();
};
const nodeHash = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
// SPKI DER header for an Ed25519 public key; the 32 raw bytes follow.
const spkiPrefix = Buffer.from("302a300506032b6570032100", "hex");

/** Parses `<name>+<hex key id>+<base64(0x01 ‖ key)>` and checks the id matches the key. */
export function parseVerifierKey(text: string): VerifierKey {
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(text.trim());
  const raw = match ? Buffer.from(match[3], "base64") : Buffer.alloc(0);
  if (!match || raw.length !== 33 || raw[0] !== 1) throw new Error("not an Ed25519 signed-note verifier key");
  const id = sha256(Buffer.from(`${match[1]}\n`), raw).subarray(0, 4);
  if (id.toString("hex") !== match[2]) throw new Error("verifier key id does not match its key");
  return { name: match[1], keyId: id, publicKey: raw.subarray(1) };
}

/** Verifies a signed note's signature by `key`; returns the note text (without signatures) or throws. */
export function verifyNote(note: string, key: VerifierKey): string {
  const split = note.lastIndexOf("\n\n");
  if (split < 0) throw new Error("malformed signed note");
  const text = note.slice(0, split + 1);
  const publicKey = createPublicKey({ key: Buffer.concat([spkiPrefix, key.publicKey]), format: "der", type: "spki" });
  for (const line of note.slice(split + 2).split("\n")) {
    const m = /^— (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (m?.[1] !== key.name) continue;
    const sig = Buffer.from(m[2], "base64");
    if (!sig.subarray(0, 4).equals(key.keyId)) continue;
    if (verifySignature(null, Buffer.from(text), publicKey, sig.subarray(4))) return text;
  }
  throw new Error(`no valid signature by ${key.name} on the checkpoint`);
}

/** Verifies and parses a C2SP tlog-checkpoint; `origin` defaults to the key's name. */
export function openCheckpoint(note: string, key: VerifierKey, origin = key.name): Checkpoint {
  const [first, size, root] = verifyNote(note, key).split("\n");
  if (first !== origin || !/^(0|[1-9][0-9]*)$/.test(size ?? "") || !root)
    throw new Error("checkpoint is not a tlog-checkpoint for this origin");
  return { origin: first, treeSize: Number(size), rootHash: Buffer.from(root, "base64"), note };
}

/** RFC 9162 §2.1.3.2: does `proof` place `leafHash` at `index` in the tree of `size` with `root`? */
export function verifyInclusion(leafHash: Buffer, index: number, size: number, proof: Buffer[], root: Buffer): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else r = nodeHash(r, p);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return sn === 0 && r.equals(root);
}

function isPowerOfTwo(n: number): boolean {
  while (n > 1 && n % 2 === 0) n /= 2;
  return n === 1;
}

/** RFC 9162 §2.1.4.2: is the tree (size1, root1) a prefix of (size2, root2)? */
export function verifyConsistency(size1: number, size2: number, proof: Buffer[], root1: Buffer, root2: Buffer) {
  if (size1 > size2) return false;
  if (size1 === size2) return proof.length === 0 && root1.equals(root2);
  if (size1 === 0 || proof.length === 0) return false;
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : [...proof];
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) [fn, sn] = [(fn - 1) / 2, Math.floor(sn / 2)];
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      [fr, sr] = [nodeHash(c, fr), nodeHash(c, sr)];
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [fn / 2, Math.floor(sn / 2)];
    } else sr = nodeHash(sr, c);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  return fr.equals(root1) && sr.equals(root2) && sn === 0;
}

/** A verifySeal answer checked offline: signature, seal = leaf hash, and the inclusion proof. */
export function verifySealProof(
  seal: string,
  result: {
    leaf_index?: number;
    leaf_hash?: string;
    inclusion_proof?: { tree_size: number; hashes: string[] };
    checkpoint?: string;
  },
  key: VerifierKey,
): Checkpoint {
  if (!result.inclusion_proof || result.leaf_index === undefined || !result.checkpoint || !result.leaf_hash)
    throw new Error("the log has not returned a proof for this seal (pending or invalid)");
  const checkpoint = openCheckpoint(result.checkpoint, key);
  const leaf = Buffer.from(result.leaf_hash, "hex");
  if (seal !== `seal_${result.leaf_hash}`) throw new Error("the proof is for a different leaf than the seal");
  if (checkpoint.treeSize !== result.inclusion_proof.tree_size) throw new Error("proof and checkpoint sizes differ");
  const proof = result.inclusion_proof.hashes.map((h) => Buffer.from(h, "base64"));
  if (!verifyInclusion(leaf, result.leaf_index, checkpoint.treeSize, proof, checkpoint.rootHash))
    throw new Error("inclusion proof does not verify against the signed checkpoint");
  return checkpoint;
}
