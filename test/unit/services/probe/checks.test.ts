// probe-checks and probe-robots: robots.txt groups, JSON-LD products, weights, score and grade boundaries.
import assert from "node:assert/strict";
import type { Fetched } from "../../../../server/services/probe/fetch.js";
import { runChecks, scoreOf, weights, type ProbeCheck } from "../../../../server/services/probe/checks.js";
import { mayCrawlRoot, sitemapsOf } from "../../../../server/services/probe/robots.js";

const ok = (body: string, url = "http://shop.example/"): Fetched => ({
  ok: true,
  url,
  status: 200,
  contentType: "text/plain",
  body,
});
const missing: Fetched = {
  ok: true,
  url: "http://shop.example/x",
  status: 404,
  contentType: "text/plain",
  body: "not found",
};

describe("probe-robots", () => {
  const robots =
    "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: ClaudeBot\nAllow: /\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\nSitemap: https://shop.example/s.xml\n";
  const cases: [string, boolean][] = [
    ["GPTBot", false],
    ["ccbot", false],
    ["ClaudeBot", true],
    ["PerplexityBot", true],
  ];
  for (const [bot, allowed] of cases)
    it(`mayCrawlRoot(${bot}) is ${allowed}`, () => {
      assert.equal(mayCrawlRoot(robots, bot), allowed);
    });
  it("falls back to the * group", () => {
    assert.equal(mayCrawlRoot("User-agent: *\nDisallow: /\n", "OAI-SearchBot"), false);
  });
  it("lists sitemaps", () => {
    assert.deepEqual(sitemapsOf(robots), ["https://shop.example/s.xml"]);
  });
});

describe("probe-checks", () => {
  it("weights add up to 100", () => {
    assert.equal(
      Object.values(weights).reduce((a, b) => a + b, 0),
      100,
    );
  });

  const grades: [number, string][] = [
    [100, "A"],
    [90, "A"],
    [89, "B"],
    [75, "B"],
    [74, "C"],
    [55, "C"],
    [54, "D"],
    [35, "D"],
    [34, "F"],
    [0, "F"],
  ];
  for (const [score, grade] of grades) {
    it(`grades ${score} as ${grade}`, () => {
      const checks: ProbeCheck[] = [
        { id: "a", passed: true, detail: "", weight: score },
        { id: "b", passed: false, detail: "", weight: 100 - score },
      ];
      assert.deepEqual(scoreOf(checks), { score, grade });
    });
  }

  it("finds a Product with an Offer in a JSON-LD array and passes missing robots.txt as open access", () => {
    const home = ok(
      `<script type="application/ld+json">[{"@type":"WebSite"},{"@type":["Product"],"offers":[{"@type":"AggregateOffer"}]}]</script>`,
    );
    const checks = Object.fromEntries(
      runChecks({ home, agentCard: missing, robots: missing, llms: missing, sitemap: missing }).map((c) => [
        c.id,
        c.passed,
      ]),
    );
    assert.deepEqual(checks, {
      home_page: true,
      agent_card: false,
      robots_txt: false,
      llms_txt: false,
      sitemap: false,
      product_schema: true,
      answer_engine_access: true,
    });
  });

  it("fails every document check when the home page could not be fetched", () => {
    const down: Fetched = { ok: false, url: "http://shop.example/", reason: "unreachable", detail: "ECONNREFUSED" };
    const checks = runChecks({ home: down, agentCard: down, robots: down, llms: down, sitemap: down });
    assert.deepEqual(
      checks.filter((c) => c.passed).map((c) => c.id),
      [],
    );
    assert.deepEqual(scoreOf(checks), { score: 0, grade: "F" });
    assert.match(checks[0].detail, /ECONNREFUSED/);
  });
});
