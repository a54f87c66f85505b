// C2SP signed-note with Ed25519 (algorithm byte 0x01) and C2SP tlog-checkpoint bodies, over node:crypto.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";

export interface NoteSigner {
  name: string;
  /** `<name>+<hex key id>+<base64(0x01 ‖ public key)>`: what verifiers pin. */
  verifierKey: string;
  sign(text: string): string;
}

const ed25519 = 0x01;
// PKCS#8 DER header for an Ed25519 private key; the 32-byte seed follows.
const pkcs8Prefix = Buffer.from("302e020100300506032b657004220420", "hex");

/** Key ID = first 4 bytes of SHA-256(name ‖ "\n" ‖ 0x01 ‖ public key). */
function keyId(name: string, publicKey: Buffer): Buffer {
  return createHash("sha256")
    .update(`${name}\n`)
    .update(Buffer.from([ed25519]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

function rawPublicKey(privateKey: KeyObject): Buffer {
  return Buffer.from(createPublicKey(privateKey).export({ format: "jwk" }).x!, "base64url");
}

/** A fresh private key in the signed-note form `PRIVATE+KEY+<name>+<hex id>+<base64(0x01 ‖ seed)>`. */
export function generateNoteKey(name: string): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d!, "base64url");
  const id = keyId(name, rawPublicKey(privateKey)).toString("hex");
  return `PRIVATE+KEY+${name}+${id}+${Buffer.concat([Buffer.from([ed25519]), seed]).toString("base64")}`;
}

/** Parses a signed-note private key; throws naming what is wrong. */
export function createNoteSigner(privateKeyText: string): NoteSigner {
  const match = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/=]+)$/.exec(privateKeyText.trim());
  const raw = match ? Buffer.from(match[3], "base64") : Buffer.alloc(0);
  if (!match || raw.length !== 33 || raw[0] !== ed25519)
    throw new Error("AUDIT_SIGNING_KEY is not a signed-note Ed25519 private key (PRIVATE+KEY+name+id+base64)");
  const name = match[1];
  const seed = raw.subarray(1);
  const privateKey = createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: "der", type: "pkcs8" });
  const publicKey = rawPublicKey(privateKey);
  const id = keyId(name, publicKey);
  return {
    name,
    verifierKey: `${name}+${id.toString("hex")}+${Buffer.concat([Buffer.from([ed25519]), publicKey]).toString("base64")}`,
    sign(text) {
      const signature = sign(null, Buffer.from(text), privateKey);
      return `${text}\n— ${name} ${Buffer.concat([id, signature]).toString("base64")}\n`;
    },
  };
}

/** The tlog-checkpoint body: origin, decimal tree size, base64 root hash, each line newline-terminated. */
export function checkpointText(origin: string, treeSize: number, rootHash: Buffer): string {
  return `${origin}\n${treeSize}\n${rootHash.toString("base64")}\n`;
}
