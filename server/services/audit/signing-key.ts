// The checkpoint signing key: AUDIT_SIGNING_KEY when set, else one generated on first start and kept with the data.
import type { Knex } from "knex";
import { createNoteSigner, generateNoteKey, type NoteSigner } from "./note.js";

export async function loadNoteSigner(db: Knex, configured: string | null, origin: string): Promise<NoteSigner> {
  if (configured) return createNoteSigner(configured);
  // Two instances starting at once: the first insert wins and both read the same key back.
  await db("audit_signing_keys")
    .insert({ id: 1, private_key: generateNoteKey(origin) })
    .onConflict("id")
    .ignore();
  const row = await db("audit_signing_keys").where({ id: 1 }).first<{ private_key: string }>("private_key");
  return createNoteSigner(row.private_key);
}
