// `npm start`: run the reference server from the environment.
import { enableCompileCache } from "./compile-cache.js";

enableCompileCache();
const { start } = await import("./index.js");

start().catch((error: unknown) => {
  console.error(`dispatch: failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
