// Bundles the CLI, the SDK and their dependencies into cli/dist/ (one entry plus lazily loaded chunks), so the
// published package has no runtime dependencies and starts without resolving node_modules.
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const cliDir = fileURLToPath(new URL(".", import.meta.url));
rmSync(`${cliDir}dist`, { recursive: true, force: true });
await build({
  entryPoints: { dispatch: `${cliDir}main.ts` },
  outdir: `${cliDir}dist`,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  minify: true,
  legalComments: "linked",
  // Bundled CommonJS dependencies (commander) call require() for Node built-ins.
  banner: {
    js: '#!/usr/bin/env node\nimport { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
  },
  logLevel: "warning",
});
console.log("built cli/dist/dispatch.js");
