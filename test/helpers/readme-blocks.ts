// The executable sections of README.md and the guides in docs/, for the tests that run them as a new user would: the
// ```sh blocks (or a file's ```js block) between markers, and the environment of that user's second terminal.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { root } from "./server-process.js";

/** The ```sh (or other `language`) blocks between `<!-- name:start -->` and `<!-- name:end -->`, in order. */
export function markedBlocks(markdown: string, name: string, language = "sh"): string[] {
  const section = new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`).exec(markdown)?.[1];
  if (section === undefined) throw new Error(`no ${name} markers in the markdown given`);
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...section.matchAll(fence)].map((m) => m[1] ?? "");
}

/** The environment a new user's second terminal has: PATH with `dispatch`, no DISPATCH_* settings, a clean HOME. */
export function userEnv(dir: string, port: number): NodeJS.ProcessEnv {
  const bin = join(dir, "bin");
  mkdirSync(bin);
  symlinkSync(join(root, "cli/bin/dispatch.cjs"), join(bin, "dispatch"));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DISPATCH_")));
  return {
    ...inherited,
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    PORT: String(port),
  };
}
