// Browser files the server serves from its own origin: a built server ships them in dist/assets/ (so the package
// needs no front-end dependencies), a run from source reads them from node_modules.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** Path of Redoc's standalone bundle (the /docs page's script). */
export function redocBundlePath(): string {
  const shipped = fileURLToPath(new URL("../assets/redoc.standalone.js", import.meta.url));
  if (existsSync(shipped)) return shipped;
  return createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
}
