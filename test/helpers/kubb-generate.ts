// Generates a Kubb fetch client from a contract into ./client of the current directory. Run as a child process
// with that directory as its cwd: Kubb writes a second copy of its output relative to the process's cwd.
import { build } from "@kubb/core";
import { pluginClient } from "@kubb/plugin-client";
import { pluginOas } from "@kubb/plugin-oas";
import { pluginTs } from "@kubb/plugin-ts";

const [contract] = process.argv.slice(2);
const { error } = await build({
  config: {
    root: process.cwd(),
    input: { path: contract },
    // Node's module resolution wants the emitted .js names in relative imports.
    output: { path: "./client", clean: true, extension: { ".ts": ".js" } },
    plugins: [pluginOas(), pluginTs(), pluginClient({ client: "fetch", dataReturnType: "full" })],
  },
});
if (error) throw error;
