// Entry of the bundled `dispatch` (cli/dist/dispatch.cjs): runs the CLI with the process arguments.
import { main } from "./index.js";

void main(process.argv).then((code) => {
  process.exitCode = code;
});
