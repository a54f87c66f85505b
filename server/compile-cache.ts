// Node's on-disk compile cache (Node >= 22.1): a restart reuses V8's compiled code for the server's modules instead of
// parsing and compiling them again. Callers enable it before they import the server's modules (dynamically), since
// a static import graph is compiled before any of its code runs. NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from "node:module";

/** The repo's @types/node (Node 20's) does not declare the function, and Node 20 does not have it. */
const nodeModule: Pick<typeof module, "isBuiltin"> & { enableCompileCache?: () => unknown } = module;

/** Whether this Node has the compile cache (Node 22.1 and later). */
export const hasCompileCache = nodeModule.enableCompileCache !== undefined;

export function enableCompileCache(): void {
  nodeModule.enableCompileCache?.();
}
