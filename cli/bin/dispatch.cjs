#!/usr/bin/env node
// Bin of `dispatch`: the bundled CLI (cli/dist, built by `npm run build:cli` and before `npm pack`), else, in a
// clone without a build, the TypeScript source through tsx. CommonJS like the bundle, so that starting `dispatch`
// needs no ES module loader (see cli/build.ts).
"use strict";
const bundled = require("node:path").join(__dirname, "..", "dist", "dispatch.cjs");

if (process.env.DISPATCH_CLI_FROM_SOURCE) runFromSource();
else {
  // V8's code cache of the bundle (Node's default directory, os.tmpdir()/node-compile-cache; NODE_DISABLE_COMPILE_CACHE=1
  // turns it off; Node 20 has no such call): a start then skips compiling the bundle and the functions the last run
  // compiled (the saving is measured in docs/decisions.md, "The CLI bundle").
  require("node:module").enableCompileCache?.();
  try {
    require(bundled);
  } catch (err) {
    if (err?.code !== "MODULE_NOT_FOUND" || !String(err.message).includes(bundled)) throw err;
    runFromSource();
  }
}

function runFromSource() {
  // A failure here is an unhandled rejection: Node prints it and exits with 1.
  void import("tsx/esm/api").then(({ register }) => {
    register();
    return import("../main.ts");
  });
}
