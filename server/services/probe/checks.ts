// The probe's checks over fetched documents, their weights, the score and the grade. Pure functions.
import type { Fetched } from "./fetch.js";
import { isRecord } from "../shared/is-record.js";
import { answerEngineBots, mayCrawlRoot } from "./robots.js";

export interface ProbeCheck {
  id: string;
  passed: boolean;
  detail: string;
  weight: number;
}
export interface ProbeDocuments {
  home: Fetched;
  agentCard: Fetched;
  robots: Fetched;
  llms: Fetched;
  sitemap: Fetched;
}

export const weights = {
  home_page: 10,
  agent_card: 20,
  robots_txt: 10,
  llms_txt: 15,
  sitemap: 10,
  product_schema: 20,
  answer_engine_access: 15,
} as const;
type CheckId = keyof typeof weights;

const check = (id: CheckId, passed: boolean, detail: string): ProbeCheck => ({
  id,
  passed,
  detail,
  weight: weights[id],
});

/** The body of a 2xx answer, or why there is none. */
function bodyOf(doc: Fetched): { body: string; status: number } | { why: string } {
  if (!doc.ok) return { why: `${doc.url}: ${doc.detail}` };
  if (doc.status < 200 || doc.status > 299) return { why: `${doc.url} answered ${doc.status}` };
  return { body: doc.body, status: doc.status };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function agentCardCheck(doc: Fetched): ProbeCheck {
  const got = bodyOf(doc);
  if ("why" in got) return check("agent_card", false, got.why);
  const card = parseJson(got.body);
  const name = isRecord(card) && typeof card.name === "string" ? card.name : null;
  const ok =
    isRecord(card) &&
    name !== null &&
    (Array.isArray(card.skills) || typeof card.url === "string" || Array.isArray(card.supportedInterfaces));
  return check(
    "agent_card",
    ok,
    ok
      ? `agent card "${name}" found`
      : "/.well-known/agent-card.json is not an agent card (JSON with name and skills or interfaces)",
  );
}

function textCheck(
  id: "robots_txt" | "llms_txt",
  doc: Fetched,
  looksRight: (text: string) => boolean,
  what: string,
): ProbeCheck {
  const got = bodyOf(doc);
  if ("why" in got) return check(id, false, got.why);
  return looksRight(got.body) ? check(id, true, `${what} found`) : check(id, false, `${what} is empty or malformed`);
}

function sitemapCheck(doc: Fetched): ProbeCheck {
  const got = bodyOf(doc);
  if ("why" in got) return check("sitemap", false, got.why);
  const ok = /<(urlset|sitemapindex)[\s>]/.test(got.body);
  return check(
    "sitemap",
    ok,
    ok ? `sitemap found at ${doc.url}` : `${doc.url} is not a sitemap (no <urlset> or <sitemapindex>)`,
  );
}

/** JSON-LD nodes of the home page, flattened through arrays and @graph. */
function jsonLdNodes(html: string): Record<string, unknown>[] {
  const scripts = [
    ...html.matchAll(/<script[^>]*type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script>/gi),
  ];
  const nodes: Record<string, unknown>[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (!isRecord(value)) return;
    nodes.push(value);
    walk(value["@graph"]);
  };
  for (const script of scripts) walk(parseJson(script[1]));
  return nodes;
}

const hasType = (node: unknown, ...types: string[]) => {
  const t = isRecord(node) ? node["@type"] : undefined;
  return (Array.isArray(t) ? t : [t]).some((v) => types.includes(String(v)));
};

function productSchemaCheck(home: Fetched): ProbeCheck {
  const got = bodyOf(home);
  if ("why" in got) return check("product_schema", false, got.why);
  const products = jsonLdNodes(got.body).filter((n) => hasType(n, "Product", "ProductGroup"));
  const offered = products.filter((p) => [p.offers].flat().some((o) => hasType(o, "Offer", "AggregateOffer")));
  if (offered.length > 0)
    return check("product_schema", true, `${offered.length} schema.org Product with Offer in JSON-LD`);
  return check(
    "product_schema",
    false,
    products.length ? "schema.org Product without an Offer" : "no schema.org Product JSON-LD on the home page",
  );
}

function answerEngineCheck(robots: Fetched): ProbeCheck {
  // RFC 9309 §2.3.1: a 4xx robots.txt means no rules; an unreachable one or a 5xx means "disallow all".
  if (robots.ok && robots.status >= 400 && robots.status < 500)
    return check("answer_engine_access", true, "no robots.txt: answer-engine crawlers are allowed by default");
  const got = bodyOf(robots);
  if ("why" in got)
    return check(
      "answer_engine_access",
      false,
      `robots.txt unavailable, which crawlers treat as disallow-all (${got.why})`,
    );
  const blocked = answerEngineBots.filter((bot) => !mayCrawlRoot(got.body, bot));
  return check(
    "answer_engine_access",
    blocked.length === 0,
    blocked.length ? `robots.txt blocks ${blocked.join(", ")}` : `robots.txt allows ${answerEngineBots.join(", ")}`,
  );
}

export function runChecks(docs: ProbeDocuments): ProbeCheck[] {
  const home = bodyOf(docs.home);
  return [
    check("home_page", "body" in home, "body" in home ? `home page answered ${home.status}` : home.why),
    agentCardCheck(docs.agentCard),
    textCheck("robots_txt", docs.robots, (t) => /^\s*(user-agent|sitemap|allow|disallow)\s*:/im.test(t), "robots.txt"),
    textCheck("llms_txt", docs.llms, (t) => /^#\s+\S/m.test(t), "llms.txt"),
    sitemapCheck(docs.sitemap),
    productSchemaCheck(docs.home),
    answerEngineCheck(docs.robots),
  ];
}

/** Weighted share of passed checks, 0-100, and its letter grade. */
export function scoreOf(checks: ProbeCheck[]): { score: number; grade: "A" | "B" | "C" | "D" | "F" } {
  const total = checks.reduce((sum, c) => sum + c.weight, 0);
  const score = total
    ? Math.round((100 * checks.filter((c) => c.passed).reduce((sum, c) => sum + c.weight, 0)) / total)
    : 0;
  const grade = score >= 90 ? "A" : score >= 75 ? "B" : score >= 55 ? "C" : score >= 35 ? "D" : "F";
  return { score, grade };
}
