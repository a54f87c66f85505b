// Measures the dispatch domain's shape from its real imports (the TypeScript pre-processor's import list): files,
// relative import arrows inside the domain, import levels, circles, mean relative imports a file, the largest
// composition file's imports, and the comment share of service lines. `tsx scripts/structure.ts [--json]`.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { scanComments } from "./comments.js";

const root = resolve(import.meta.dirname, "..");
const domains = ["server/services/dispatch", "server/services/sandbox"];
/** The file that composes the domain (before it moved there, dispatch/orders/index.ts did). */
const composition = ["server/services/dispatch-domain.ts"];

function filesUnder(dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.includes("generated/"))
    .map((file) => join(dir, file))
    .sort();
}

/** The relative imports of a file (static imports, re-exports, dynamic imports), resolved to repository paths. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(root, resolve(root, dirname(file), name)).replace(/\.js$/, ".ts"));
}

/** Tarjan's strongly connected components with more than one file: the import circles. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      component.push(top);
      if (top === node) break;
    }
    if (component.length > 1) circles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** Import levels: the longest chain of imports inside the domain (a circle counts as one level). */
function levelsOf(graph: Map<string, string[]>, circles: string[][]): number {
  const group = new Map<string, string>();
  for (const circle of circles) for (const file of circle) group.set(file, circle[0]);
  const of = (file: string) => group.get(file) ?? file;
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (node: string): number => {
    if (depth.has(node)) return depth.get(node)!;
    visiting.add(node);
    let deepest = 0;
    const members = [...graph.keys()].filter((file) => of(file) === node);
    for (const member of members)
      for (const to of graph.get(member) ?? [])
        if (of(to) !== node && !visiting.has(of(to))) deepest = Math.max(deepest, depthOf(of(to)));
    visiting.delete(node);
    depth.set(node, deepest + 1);
    return deepest + 1;
  };
  return Math.max(0, ...[...new Set([...graph.keys()].map(of))].map(depthOf));
}

/** Comment lines (a line whose code is only a comment) over non-blank lines. */
function commentShare(files: string[]): { lines: number; comments: number } {
  let lines = 0;
  let comments = 0;
  for (const file of files) {
    const { comments: found, codeLines } = scanComments(readFileSync(join(root, file), "utf8"));
    const commentLines = new Set(
      found.flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i)),
    );
    for (const line of commentLines) if (!codeLines.has(line)) comments++;
    lines += new Set([...commentLines, ...codeLines]).size;
  }
  return { lines, comments };
}

/** The folder of a file: dispatch's sub-folders and the sandbox each one, dispatch's own files "dispatch", and
 * the composition file (services/dispatch-domain.ts) apart. */
const folderOf = (file: string) =>
  file === "server/services/dispatch-domain.ts"
    ? "compose"
    : file.startsWith("server/services/sandbox/")
      ? "sandbox"
      : (/^server\/services\/dispatch\/([^/]+)\//.exec(file)?.[1] ?? "dispatch");

/** Imports between folders: "from -> to" with how many files' arrows. */
function folderArrows(internal: Map<string, string[]>): Record<string, number> {
  const arrows: Record<string, number> = {};
  for (const [file, targets] of internal)
    for (const to of targets) {
      const [a, b] = [folderOf(file), folderOf(to)];
      if (a !== b) arrows[`${a} -> ${b}`] = (arrows[`${a} -> ${b}`] ?? 0) + 1;
    }
  return arrows;
}

export function measure() {
  const files = [...domains.flatMap(filesUnder), ...composition.filter((file) => existsSync(join(root, file)))];
  const inDomain = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const internal = new Map([...graph].map(([file, to]) => [file, [...new Set(to.filter((t) => inDomain.has(t)))]]));
  const arrows = [...internal.values()].reduce((sum, to) => sum + to.length, 0);
  const relativeImports = [...graph.values()].reduce((sum, to) => sum + new Set(to).size, 0);
  const circles = circlesOf(internal);
  const [largest, largestImports] = [...graph]
    .map(([file, to]) => [file, new Set(to).size] as const)
    .sort((a, b) => b[1] - a[1])[0];
  const services = commentShare(filesUnder("server/services"));
  const domain = commentShare(files);
  const lines = files.reduce((sum, file) => sum + readFileSync(join(root, file), "utf8").split("\n").length, 0);
  const ordersFolder = files.filter((file) => file.startsWith("server/services/dispatch/orders/"));
  const folders = folderArrows(internal);
  const folderGraph = new Map<string, string[]>();
  for (const key of Object.keys(folders)) {
    const [a, b] = key.split(" -> ");
    folderGraph.set(a, [...(folderGraph.get(a) ?? []), b]);
    if (!folderGraph.has(b)) folderGraph.set(b, []);
  }
  return {
    files: files.length,
    lines,
    ordersFiles: ordersFolder.length,
    arrows,
    levels: levelsOf(internal, circles),
    circles,
    meanRelativeImports: Number((relativeImports / files.length).toFixed(1)),
    mostImports: { file: largest, imports: largestImports },
    compositionImports: Object.fromEntries(
      [...graph].filter(([file]) => folderOf(file) === "compose").map(([file, to]) => [file, new Set(to).size]),
    ),
    folderArrows: folders,
    folderCircles: circlesOf(folderGraph),
    commentShareServices: Number(((100 * services.comments) / services.lines).toFixed(1)),
    commentShareDomain: Number(((100 * domain.comments) / domain.lines).toFixed(1)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(result, null, 2));
  else
    for (const [key, value] of Object.entries(result))
      console.log(`${key.padEnd(22)} ${typeof value === "object" ? JSON.stringify(value) : value}`);
}
