#!/usr/bin/env node
// Bin of `dispatch`: the bundled CLI (cli/dist, built by `npm run build:cli` and before `npm pack`), else, in a
// clone without a build, the TypeScript source through tsx.
const bundled = new URL("../dist/dispatch.js", import.meta.url);
if (!process.env.DISPATCH_CLI_FROM_SOURCE) {
  try {
    await import(bundled.href);
  } catch (err) {
    if (err?.code !== "ERR_MODULE_NOT_FOUND" || !String(err.message).includes(bundled.pathname)) throw err;
    await runFromSource();
  }
} else await runFromSource();

async function runFromSource() {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../main.ts");
}
