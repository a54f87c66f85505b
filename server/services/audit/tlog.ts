// Merkle tree hashing and proofs per RFC 9162 §2.1, as plain functions over a subtree-hash accessor.
// Written by hand (after golang/mod sumdb/tlog): no maintained npm package produces RFC 9162 proofs from stored nodes.
import { hash } from "node:crypto";

/** The hash of the subtree over leaves [lo, hi), supplied by the caller (stored nodes or a test's leaf list). */
export type SubtreeHash = (lo: number, hi: number) => Buffer;
/** A complete, aligned subtree: 2^level leaves starting at leaf index << level. */
export interface NodeCoord {
  level: number;
  index: number;
}

const leafPrefix = Buffer.from([0]);

/** MTH({d}) = SHA-256(0x00 ‖ d), a string as its UTF-8 bytes. */
export function leafHash(data: Buffer | string): Buffer {
  return hash("sha256", typeof data === "string" ? `\u0000${data}` : Buffer.concat([leafPrefix, data]), "buffer");
}

const nodePrefix = Buffer.from([1]);

/** Interior node: SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return hash("sha256", Buffer.concat([nodePrefix, left, right], 65), "buffer");
}

/** The largest power of two smaller than n (n > 1): the RFC's split point k. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** [lo, hi) as complete aligned subtrees, largest first: how the right edge of a tree is stored. */
export function completeSubtrees(lo: number, hi: number): NodeCoord[] {
  const out: NodeCoord[] = [];
  while (lo < hi) {
    let level = 0;
    while (lo % 2 ** (level + 1) === 0 && lo + 2 ** (level + 1) <= hi) level++;
    out.push({ level, index: lo / 2 ** level });
    lo += 2 ** level;
  }
  return out;
}

/** MTH(D[lo:hi]) from complete subtree hashes: fold the decomposition from the right. */
export function treeHashFrom(nodes: Buffer[]): Buffer {
  let hash = nodes.at(-1)!;
  for (let i = nodes.length - 2; i >= 0; i--) hash = nodeHash(nodes[i], hash);
  return hash;
}

/** PATH(m, D[lo:hi]) — RFC 9162 §2.1.3.1, leaf-to-root order. */
export function inclusionProof(m: number, lo: number, hi: number, sub: SubtreeHash): Buffer[] {
  const n = hi - lo;
  if (n <= 1) return [];
  const k = splitPoint(n);
  if (m < k) return [...inclusionProof(m, lo, lo + k, sub), sub(lo + k, hi)];
  return [...inclusionProof(m - k, lo + k, hi, sub), sub(lo, lo + k)];
}

/** SUBPROOF(m, D[lo:hi], b) — RFC 9162 §2.1.4.1. */
function subproof(m: number, lo: number, hi: number, b: boolean, sub: SubtreeHash): Buffer[] {
  const n = hi - lo;
  if (m === n) return b ? [] : [sub(lo, hi)];
  const k = splitPoint(n);
  if (m <= k) return [...subproof(m, lo, lo + k, b, sub), sub(lo + k, hi)];
  return [...subproof(m - k, lo + k, hi, false, sub), sub(lo, lo + k)];
}

/** PROOF(m, D[n]) — RFC 9162 §2.1.4: consistency of the first m leaves with the first n. */
export function consistencyProof(m: number, n: number, sub: SubtreeHash): Buffer[] {
  return m > 0 && m < n ? subproof(m, 0, n, true, sub) : [];
}

/** The stored nodes a proof will read: run it once with a recording accessor. */
export function nodesNeeded(run: (sub: SubtreeHash) => unknown): NodeCoord[] {
  const wanted = new Map<string, NodeCoord>();
  run((lo, hi) => {
    for (const c of completeSubtrees(lo, hi)) wanted.set(`${c.level}/${c.index}`, c);
    return Buffer.alloc(32);
  });
  return [...wanted.values()];
}

export function accessorFrom(nodes: Map<string, Buffer>): SubtreeHash {
  return (lo, hi) =>
    treeHashFrom(
      completeSubtrees(lo, hi).map((c) => {
        const hash = nodes.get(`${c.level}/${c.index}`);
        if (!hash) throw new Error(`tree node ${c.level}/${c.index} is missing`);
        return hash;
      }),
    );
}

/** Appends leaves to a tree whose right edge is `frontier`; returns every new stored node and the new edge. */
export function appendLeaves(
  frontier: (NodeCoord & { hash: Buffer })[],
  size: number,
  leaves: Buffer[],
): { nodes: (NodeCoord & { hash: Buffer })[]; frontier: (NodeCoord & { hash: Buffer })[] } {
  const edge = [...frontier];
  const nodes: (NodeCoord & { hash: Buffer })[] = [];
  leaves.forEach((hash, i) => {
    let node = { level: 0, index: size + i, hash };
    nodes.push(node);
    while (edge.length > 0 && edge.at(-1)!.level === node.level) {
      const left = edge.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      nodes.push(node);
    }
    edge.push(node);
  });
  return { nodes, frontier: edge };
}
