// Where `dispatch` reads and writes: the process by default, or the streams, environment and stdin that runCli()
// injects, so the CLI runs in-process (tests) without touching the process's own streams or exit code.
import type { AsyncLocalStorage } from "node:async_hooks";
import { readFileSync } from "node:fs";

/** What the CLI needs of stdout and stderr. */
export interface CliStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  env: NodeJS.ProcessEnv;
  /** The whole of stdin (`--data -`). */
  readStdin(): string;
}

let watchingStdout = false;

/** process.stdout; a closed pipe (`dispatch … | head`) ends the command quietly, as other Unix tools do. */
const processStdout: CliStream = {
  write(text: string) {
    if (!watchingStdout)
      process.stdout.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "EPIPE") process.exit(0);
        throw error;
      });
    watchingStdout = true;
    return process.stdout.write(text);
  },
  get isTTY() {
    return process.stdout.isTTY;
  },
  get columns() {
    return process.stdout.columns;
  },
};

const processIo: CliIo = {
  stdout: processStdout,
  // read when written to: creating process.stderr loads stream modules a run that prints nothing there never needs
  get stderr() {
    return process.stderr;
  },
  get env() {
    return process.env;
  },
  readStdin: () => readFileSync(0, "utf8"),
};

/** Made by the first withIo(): a run of the bin never injects, so it does not load node:async_hooks. */
let injected: AsyncLocalStorage<CliIo> | undefined;

/** The streams and environment of the command that is running. */
export const currentIo = (): CliIo => injected?.getStore() ?? processIo;

/** Runs `fn` (and everything it starts) with `io` instead of the process's. */
export const withIo = <T>(io: CliIo, fn: () => T): T =>
  (injected ??= new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<CliIo>()).run(io, fn);
