#!/usr/bin/env node
// Bin entry of `dispatch`: the compiled CLI (npm run build:cli) when present, else the TypeScript source via tsx.
import { existsSync } from "node:fs";

const compiled = new URL("../../dist/cli/index.js", import.meta.url);
let cli;
if (existsSync(compiled) && !process.env.DISPATCH_CLI_FROM_SOURCE) {
  cli = await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import("../index.ts");
}
process.exitCode = await cli.main(process.argv);
