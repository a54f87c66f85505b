// Storefront readiness probe (agentic.readiness_probe): a free snapshot of discovery files, product schema and
// answer-engine access. Every target is validated before any connection and again at connect time.
import { createFetcher, defaultLimits, type FetchDocument, type Fetched, type FetchLimits } from "./fetch.js";
import { runChecks, scoreOf, type ProbeCheck } from "./checks.js";
import { sitemapsOf } from "./robots.js";
import { assertPublicTarget, invalidUrl, parseProbeUrl, type Lookup } from "./url.js";

export interface ProbeReport {
  url: string;
  grade: "A" | "B" | "C" | "D" | "F";
  score: number;
  checks: ProbeCheck[];
  snapshot: true;
  attested: false;
  fetched_at: string;
  disclaimer: string;
}
export interface ProbeOptions {
  allowPrivate: boolean;
  lookup?: Lookup;
  limits?: FetchLimits;
  /** Cap on one whole probe, ms. */
  totalMs?: number;
}

export const disclaimer =
  "This is a free snapshot of publicly fetchable files at one moment, not an attested grade: it is not verified, audited or endorsed, and results may differ on the next fetch.";

function sitemapUrl(robots: Fetched, origin: URL): URL {
  const listed = robots.ok && robots.status < 300 ? sitemapsOf(robots.body)[0] : undefined;
  try {
    if (listed) return new URL(listed, origin);
  } catch {
    // an unparseable Sitemap line: fall back to the conventional place
  }
  return new URL("/sitemap.xml", origin);
}

async function fetchAll(fetchDocument: FetchDocument, home: URL, signal: AbortSignal) {
  const homeDoc = await fetchDocument(home, signal);
  if (!homeDoc.ok && homeDoc.reason === "forbidden") throw invalidUrl(homeDoc.detail);
  // Discovery files live on the origin the home page finally answered from (after redirects).
  const origin = new URL(homeDoc.ok ? new URL(homeDoc.url).origin : home.origin);
  const at = (path: string) => fetchDocument(new URL(path, origin), signal);
  const [agentCard, robots, llms] = await Promise.all([
    at("/.well-known/agent-card.json"),
    at("/robots.txt"),
    at("/llms.txt"),
  ]);
  const sitemap = await fetchDocument(sitemapUrl(robots, origin), signal);
  return { home: homeDoc, agentCard, robots, llms, sitemap };
}

export function createProbeService(options: ProbeOptions) {
  const policy = { allowLoopback: options.allowPrivate, lookup: options.lookup };
  const fetchDocument = createFetcher(policy, options.limits ?? defaultLimits);
  return {
    /** 400 invalid_url for a refused target; otherwise a report, whatever the storefront answers. */
    async probe(input: string): Promise<ProbeReport> {
      const url = parseProbeUrl(input);
      await assertPublicTarget(url, policy);
      const fetchedAt = new Date().toISOString();
      const docs = await fetchAll(fetchDocument, url, AbortSignal.timeout(options.totalMs ?? 15_000));
      const checks = runChecks(docs);
      return {
        url: url.href,
        ...scoreOf(checks),
        checks,
        snapshot: true,
        attested: false,
        fetched_at: fetchedAt,
        disclaimer,
      };
    },
  };
}

export type ProbeService = ReturnType<typeof createProbeService>;
