// The Merkle log's proofs from stored nodes, checked against RFC 9162 §2.1 written out here from its definitions
// (MTH, PATH, PROOF over the raw leaf list) and against the SDK's offline verifiers.
import assert from "node:assert/strict";
import { createHash, verify } from "node:crypto";
import { openCheckpoint, parseVerifierKey, verifyConsistency, verifyInclusion } from "../../../../sdk/attest.js";
import { checkpointText, createNoteSigner, generateNoteKey } from "../../../../server/services/audit/note.js";
import {
  accessorFrom,
  appendLeaves,
  consistencyProof,
  inclusionProof,
  treeHashFrom,
} from "../../../../server/services/audit/tlog.js";

const h = (...parts: Buffer[]) => parts.reduce((x, p) => x.update(p), createHash("sha256")).digest();
// RFC 9162 §2.1.1 MTH, §2.1.3.1 PATH and §2.1.4.1 PROOF, straight from the text.
const k = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
function mth(d: Buffer[]): Buffer {
  if (d.length === 0) return h();
  if (d.length === 1) return h(Buffer.from([0]), d[0]);
  return h(Buffer.from([1]), mth(d.slice(0, k(d.length))), mth(d.slice(k(d.length))));
}
function path(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...path(m, d.slice(0, s)), mth(d.slice(s))] : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
}
function subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const s = k(d.length);
  return m <= s
    ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))]
    : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
}

const data = Array.from({ length: 37 }, (_, i) => Buffer.from(`record ${i}`));
const leafOf = (d: Buffer) => h(Buffer.from([0]), d);

/** Stored nodes built the way the sequencer builds them: in uneven batches on top of the previous right edge. */
function storedTree(batches: number[]) {
  const nodes = new Map<string, Buffer>();
  let frontier: ReturnType<typeof appendLeaves>["frontier"] = [];
  let size = 0;
  for (const count of batches) {
    const step = appendLeaves(frontier, size, data.slice(size, size + count).map(leafOf));
    step.nodes.forEach((n) => nodes.set(`${n.level}/${n.index}`, n.hash));
    frontier = step.frontier;
    size += count;
  }
  return { sub: accessorFrom(nodes), frontier, size };
}

describe("audit tlog", () => {
  const { sub, frontier, size } = storedTree([1, 2, 5, 8, 3, 13, 5]);

  describe("appendLeaves()", () => {
    it("keeps a right edge whose hash is the RFC 9162 root of all leaves", () => {
      assert.equal(size, 37);
      assert.deepEqual(treeHashFrom(frontier.map((n) => n.hash)), mth(data));
    });
  });

  describe("inclusionProof()", () => {
    it("equals PATH(m, D[n]) for every leaf of every tree size, and the SDK verifies it", () => {
      for (let n = 1; n <= size; n++)
        for (let m = 0; m < n; m++) {
          const proof = inclusionProof(m, 0, n, sub);
          assert.deepEqual(proof, path(m, data.slice(0, n)), `m=${m} n=${n}`);
          assert.ok(verifyInclusion(leafOf(data[m]), m, n, proof, mth(data.slice(0, n))), `m=${m} n=${n}`);
        }
    });

    it("fails verification for another leaf, index or root", () => {
      const proof = inclusionProof(5, 0, 20, sub);
      const root = mth(data.slice(0, 20));
      assert.equal(verifyInclusion(leafOf(data[6]), 5, 20, proof, root), false);
      assert.equal(verifyInclusion(leafOf(data[5]), 4, 20, proof, root), false);
      assert.equal(verifyInclusion(leafOf(data[5]), 5, 20, proof, mth(data.slice(0, 21))), false);
      assert.equal(verifyInclusion(leafOf(data[5]), 5, 20, proof.slice(1), root), false);
    });
  });

  describe("consistencyProof()", () => {
    it("equals PROOF(m, D[n]) for every pair of sizes, and the SDK verifies it", () => {
      for (let n = 1; n <= size; n++)
        for (let m = 1; m <= n; m++) {
          const proof = consistencyProof(m, n, sub);
          assert.deepEqual(proof, m === n ? [] : subproof(m, data.slice(0, n), true), `m=${m} n=${n}`);
          const [r1, r2] = [mth(data.slice(0, m)), mth(data.slice(0, n))];
          assert.ok(verifyConsistency(m, n, proof, r1, r2), `m=${m} n=${n}`);
        }
    });

    it("fails verification for a rewritten history", () => {
      const forked = [...data.slice(0, 10), Buffer.from("forged"), ...data.slice(11, 20)];
      const proof = consistencyProof(12, 20, sub);
      assert.equal(verifyConsistency(12, 20, proof, mth(forked.slice(0, 12)), mth(data.slice(0, 20))), false);
      assert.equal(verifyConsistency(12, 20, proof, mth(data.slice(0, 12)), mth(forked)), false);
    });
  });

  describe("signed checkpoints", () => {
    const signer = createNoteSigner(generateNoteKey("dispatch.example/audit"));
    const note = signer.sign(checkpointText("dispatch.example/audit", 37, mth(data)));

    it("carries an Ed25519 signature over the checkpoint text under the verifier key's id", () => {
      // The base64 key itself may contain "+": split at the first two only.
      const parts = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(signer.verifierKey);
      assert.ok(parts, signer.verifierKey);
      const [, name, id, key] = parts;
      const raw = Buffer.from(key, "base64");
      assert.equal(
        h(Buffer.from(`${name}\n`), raw)
          .subarray(0, 4)
          .toString("hex"),
        id,
      );
      const [text, sigLine] = note.split("\n\n") as [string, string];
      assert.equal(text, `dispatch.example/audit\n37\n${mth(data).toString("base64")}`);
      const sig = Buffer.from(sigLine.split(" ")[2].trim(), "base64");
      assert.equal(sig.subarray(0, 4).toString("hex"), id);
      const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), raw.subarray(1)]);
      assert.ok(verify(null, Buffer.from(`${text}\n`), { key: spki, format: "der", type: "spki" }, sig.subarray(4)));
    });

    it("opens with the SDK under the pinned key and refuses another key or an edited size", () => {
      const key = parseVerifierKey(signer.verifierKey);
      assert.deepEqual(openCheckpoint(note, key).rootHash, mth(data));
      const other = parseVerifierKey(createNoteSigner(generateNoteKey("dispatch.example/audit")).verifierKey);
      assert.throws(() => openCheckpoint(note, other), /no valid signature/);
      assert.throws(() => openCheckpoint(note.replace("\n37\n", "\n38\n"), key), /no valid signature/);
    });
  });
});
