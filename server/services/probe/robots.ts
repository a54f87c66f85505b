// Just enough robots.txt (RFC 9309) for the probe: sitemaps, and whether a crawler may fetch the site root.

/** Answer-engine and AI crawlers whose access the probe reports. */
export const answerEngineBots = [
  "GPTBot",
  "OAI-SearchBot",
  "ChatGPT-User",
  "ClaudeBot",
  "Claude-SearchBot",
  "PerplexityBot",
  "Google-Extended",
  "Applebot-Extended",
  "CCBot",
];

interface Group {
  agents: string[];
  rules: { allow: boolean; path: string }[];
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z-]+)\s*:\s*(.*?)\s*$/.exec(raw.replace(/#.*$/, ""));
    if (!match) continue;
    const field = match[1].toLowerCase();
    const value = match[2];
    if (field === "user-agent") {
      if (!current || current.rules.length > 0) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
    } else if ((field === "allow" || field === "disallow") && current) {
      current.rules.push({ allow: field === "allow", path: value });
    }
  }
  return groups;
}

export function sitemapsOf(text: string): string[] {
  return [...text.matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)].map((m) => m[1]);
}

/** True when the group that applies to `bot` (its own, else `*`) does not keep it away from "/". */
export function mayCrawlRoot(text: string, bot: string): boolean {
  const groups = parseGroups(text);
  const name = bot.toLowerCase();
  const own = groups.filter((g) => g.agents.includes(name));
  const applicable = own.length > 0 ? own : groups.filter((g) => g.agents.includes("*"));
  const rules = applicable.flatMap((g) => g.rules).filter((r) => ["/", "/*", "/$"].includes(r.path));
  // Root-matching rules are (near) equally specific; as on an RFC 9309 §2.2.2 tie, an Allow wins.
  return !rules.some((r) => !r.allow) || rules.some((r) => r.allow);
}
