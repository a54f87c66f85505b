// Service folders form layers: no folder imports, directly or through others, a folder that imports it back.
// Type-only imports count too: a cycle of types is a cycle of concepts, and one `import` away from a runtime one.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const servicesDir = resolve(import.meta.dirname, "../../../server/services");

/** Folder -> folder it imports -> the importing files (relative to server/services). */
type Graph = Map<string, Map<string, string[]>>;

const folderOf = (file: string): string | undefined => {
  const parts = relative(servicesDir, file).split("/");
  return parts.length > 1 && parts[0] !== ".." ? parts[0] : undefined;
};

function importGraph(): Graph {
  const graph: Graph = new Map();
  const files = readdirSync(servicesDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  for (const file of files.map((f) => join(servicesDir, f))) {
    const from = folderOf(file);
    if (!from) continue;
    for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      const to = fileName.startsWith(".") ? folderOf(resolve(dirname(file), fileName)) : undefined;
      if (!to || to === from) continue;
      const targets = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, targets.set(to, [...(targets.get(to) ?? []), relative(servicesDir, file)]));
    }
  }
  return graph;
}

/** Every elementary cycle once, each starting at its alphabetically first folder. */
function cyclesOf(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const walk = (start: string, path: string[]) => {
    for (const next of graph.get(path.at(-1)!)?.keys() ?? []) {
      if (next === start) cycles.push([...path, start]);
      else if (next > start && !path.includes(next)) walk(start, [...path, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, [start]);
  return cycles;
}

const describeCycle = (graph: Graph, cycle: string[]) =>
  cycle
    .slice(1)
    .map((to, i) => `${cycle[i]} -> ${to} (${[...new Set(graph.get(cycle[i])!.get(to))].join(", ")})`)
    .join("; ");

describe("service folders", () => {
  describe("import graph", () => {
    it("finds a cycle it is shown, so an empty answer means something", () => {
      const graph: Graph = new Map([
        ["a", new Map([["b", ["a/x.ts"]]])],
        [
          "b",
          new Map([
            ["c", ["b/y.ts"]],
            ["a", ["b/z.ts"]],
          ]),
        ],
        ["c", new Map([["a", ["c/w.ts"]]])],
      ]);
      assert.deepEqual(cyclesOf(graph), [
        ["a", "b", "c", "a"],
        ["a", "b", "a"],
      ]);
    });

    it("reads the real folders' imports", () => {
      assert.ok(importGraph().get("dispatch")?.has("audit"));
    });

    it("has no cycle between service folders", () => {
      const graph = importGraph();
      assert.deepEqual(
        cyclesOf(graph).map((cycle) => describeCycle(graph, cycle)),
        [],
      );
    });
  });
});
