// Intermediate command words (`admin`, `admin keys`, `orders` …) and their one-line descriptions.
import type { Command } from "commander";

const descriptions: Record<string, string> = {
  orders: "Tracked work orders",
  events: "Your account's order events (a page, or a live stream)",
  sandbox: "Move test-key orders by hand, or empty the sandbox",
  webhooks: "Your account's webhook signing secret (read, rotate) and deliveries (list, redeliver)",
  mcp: "Model Context Protocol endpoint (tools/list, tools/call)",
  auth: "Self-serve OAuth client credentials (quote only)",
  a2a: "Agent-to-agent JSON-RPC endpoint",
  attest: "Audit-log seals, checkpoints and offline verification",
  audit: "Your account's audit trail",
  discovery: "Agent card, capability index and the contract",
  health: "Liveness and readiness",
  admin: "Operator area (needs --admin-token)",
  "admin keys": "API keys",
  "admin contractors": "Contractor pool",
  "admin orders": "Order lifecycle events",
  config: "Named profiles in $DISPATCH_CONFIG or ~/.config/dispatch/config.json (mode 0600)",
};

/** Finds or creates the command for `words` under `root`, creating groups on the way. */
export function ensureGroup(root: Command, words: readonly string[]): Command {
  let parent = root;
  words.forEach((word, i) => {
    const existing = parent.commands.find((c) => c.name() === word);
    const path = words.slice(0, i + 1).join(" ");
    parent = existing ?? parent.command(word).description(descriptions[path] ?? `${path} commands`);
  });
  return parent;
}
