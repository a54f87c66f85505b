// The order domain's shape, pinned: one order service writes orders and their events, one table says where an order
// may move, and the domain's parameters are named for what they hold. A second service or a copied state machine
// would let the lifecycle, customer cancelling and the sandbox drift apart again.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const servicesDir = fileURLToPath(new URL("../../../server/services/", import.meta.url));
const ordersDir = join(servicesDir, "dispatch", "orders");

const sourceFiles = (dir: string) =>
  readdirSync(dir, { recursive: true })
    .map((file) => join(dir, String(file)))
    .filter((file) => file.endsWith(".ts"));

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);

/** Every node of a file that passes `test`. */
function nodesOf<T extends ts.Node>(file: string, test: (node: ts.Node) => node is T): T[] {
  const found: T[] = [];
  const visit = (node: ts.Node): void => {
    if (test(node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

/** Writes to a table: `db("orders").insert/update/del` and raw `insert into / update / delete from orders`. */
function writesTable(text: string, table: string): boolean {
  const builder = new RegExp(`\\(\\s*"${table}"\\s*\\)[\\s\\S]{0,200}?\\.(insert|update|del|delete)\\(`);
  const raw = new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+${table}\\b`, "i");
  return builder.test(text) || raw.test(text);
}

const rel = (file: string) => relative(servicesDir, file);

describe("the order domain", () => {
  it("has one service factory, createOrderService, in dispatch/orders/", () => {
    const factories = sourceFiles(servicesDir).flatMap((file) =>
      nodesOf(file, ts.isFunctionDeclaration)
        .map((fn) => fn.name?.text ?? "")
        .filter((name) => /^create\w*(Order|Lifecycle|Sandbox)\w*Service$/.test(name))
        .map((name) => `${rel(file)}:${name}`),
    );
    assert.deepEqual(factories, ["dispatch/orders/index.ts:createOrderService"]);
  });

  it("writes orders and order_events only from dispatch/orders/ (the feed sequencer aside)", () => {
    const writers = sourceFiles(servicesDir)
      .filter((file) => !file.startsWith(ordersDir))
      .filter((file) => {
        const text = readFileSync(file, "utf8");
        return writesTable(text, "orders") || writesTable(text, "order_events");
      })
      .map(rel);
    // The feed sequencer stamps `seq` on events after commit: it orders the feed, it does not move orders.
    assert.deepEqual(writers, ["events/sequencer.ts"]);
  });

  it("keeps one transition table: no other module maps a lifecycle status to the statuses after it", () => {
    const statusArrayMaps = sourceFiles(servicesDir).filter((file) => {
      const text = readFileSync(file, "utf8");
      return /\bpending_dispatch\s*:\s*\[/.test(text) || /\bdispatched\s*:\s*\[/.test(text);
    });
    assert.deepEqual(statusArrayMaps.map(rel), ["dispatch/orders/state.ts"]);
  });

  it("names every parameter in services/dispatch for what it holds (no one-letter names outside callbacks)", () => {
    const terse = sourceFiles(join(servicesDir, "dispatch")).flatMap((file) =>
      nodesOf(file, ts.isParameter)
        .filter((param) => ts.isIdentifier(param.name) && param.name.text.length === 1)
        .filter((param) => !ts.isArrowFunction(param.parent)) // (x) => … in a map/filter/sort reads fine
        .map((param) => `${rel(file)}:${(param.name as ts.Identifier).text}`),
    );
    assert.deepEqual(terse, []);
  });
});
