// The /docs page renders every operation of the contract in headless Chromium (Debian chromium + playwright-core),
// and without JavaScript points at the contract.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { contractOperations } from "../helpers/contract-examples.js";
import { startTestServer, type TestServer } from "../helpers/server.js";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const flags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe("docs page in a real browser", function () {
  this.timeout(120_000);
  let t: TestServer;
  let browser: Browser;

  before(async function () {
    if (!existsSync(executablePath)) {
      if (process.env.CI)
        throw new Error(`Chromium not found at ${executablePath}; .ci/run installs the Debian package`);
      this.skip();
    }
    t = await startTestServer();
    browser = await chromium.launch({ executablePath, args: flags });
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("points a browser without JavaScript at the contract itself", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(`${t.url}/docs`);
    const text = await page.locator("body").innerText();
    assert.match(text, /drawn by JavaScript \(Redoc\), which is off in this browser/);
    const links = await page
      .locator("noscript a, body a")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("href")));
    assert.deepEqual(links, ["/openapi.yaml", "/openapi.json", "/"]); // each served (discovery.test.ts)
    await page.close();
  });

  it("loads /docs, shows every operation and takes a screenshot", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const failed: string[] = [];
    const outside: string[] = [];
    page.on("requestfailed", (r) => r.url().startsWith(t.url) && failed.push(r.url()));
    // The page works offline: every request goes to loopback (data: and blob: URLs never reach the network).
    page.on("request", (r) => {
      const { protocol, hostname } = new URL(r.url());
      if (protocol !== "data:" && protocol !== "blob:" && !/^(127\.|\[::1\]$|localhost$)/.test(hostname))
        outside.push(r.url());
    });
    await page.goto(`${t.url}/docs`, { waitUntil: "networkidle" });
    await page.waitForSelector("[data-section-id^='tag/']", { timeout: 60_000 });
    const text = await page.locator("body").innerText();
    const missing = contractOperations
      .map((o) => String(o.operation.summary))
      .filter((summary) => !text.includes(summary));
    assert.deepEqual(missing, [], "operations missing from the rendered page");
    // The navigation starts where a customer starts: quote, then orders (the contract's `tags` order).
    const sections = await page
      .locator("[data-section-id^='tag/']")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-section-id") ?? ""));
    const tags = [...new Set(sections.map((id) => id.split("/").slice(0, 2).join("/")))];
    assert.deepEqual(tags.slice(0, 2), ["tag/quote", "tag/orders"], tags.join(", "));
    assert.deepEqual(failed, []);
    assert.deepEqual(outside, [], "requests left loopback");
    mkdirSync("test/tmp", { recursive: true });
    await page.screenshot({ path: "test/tmp/docs.png" });
    assert.ok(existsSync("test/tmp/docs.png"));
  });
});
