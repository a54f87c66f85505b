// `npm start`: run the reference server from the environment.
import { start } from "./index.js";

start().catch((error: unknown) => {
  console.error(`dispatch: failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
