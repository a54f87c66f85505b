// `npm start`: run the reference server from the environment.
import { start } from "./index.js";

start().catch((error: Error) => {
  console.error(`dispatch: failed to start: ${error.message}`);
  process.exit(1);
});
