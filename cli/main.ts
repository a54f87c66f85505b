// Entry of the bundled `dispatch` (cli/dist/dispatch.js): runs the CLI with the process arguments.
import { main } from "./index.js";

process.exitCode = await main(process.argv);
