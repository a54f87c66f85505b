// probe-url: what counts as a probe target, and which addresses are refused (no network: DNS is a fake).
import assert from "node:assert/strict";
import type { Lookup } from "../../../../server/services/probe/url.js";
import { fakeLookup } from "../../../fixtures/storefronts/fake-dns.js";
import { assertPublicTarget, forbiddenRange, parseProbeUrl } from "../../../../server/services/probe/url.js";

describe("probe-url", () => {
  describe("parseProbeUrl()", () => {
    const cases: [string, string][] = [
      ["shop.example.com", "https://shop.example.com/"],
      ["  shop.example.com/catalog  ", "https://shop.example.com/catalog"],
      ["shop.example.com:8443", "https://shop.example.com:8443/"],
      ["http://shop.example.com/#top", "http://shop.example.com/"],
      ["HTTPS://Shop.Example.COM", "https://shop.example.com/"],
    ];
    for (const [input, href] of cases)
      it(`reads ${JSON.stringify(input)} as ${href}`, () => {
        assert.equal(parseProbeUrl(input).href, href);
      });

    for (const input of [
      "javascript:alert(1)",
      "mailto:a@b.example",
      "ftp://example.com",
      "file:///etc/passwd",
      "http://user:pass@example.com",
      "http://:pw@example.com",
      "http://exa mple.com",
      "ws://example.com",
    ]) {
      it(`refuses ${input}`, () => {
        assert.throws(() => parseProbeUrl(input), { code: "invalid_url", kind: "bad_request" });
      });
    }
  });

  describe("forbiddenRange()", () => {
    const cases: [string, string | null][] = [
      ["8.8.8.8", null],
      ["2606:4700::1111", null],
      ["127.0.0.1", "loopback"],
      ["::1", "loopback"],
      ["::ffff:127.0.0.1", "loopback"],
      ["10.1.2.3", "private"],
      ["172.31.255.255", "private"],
      ["192.168.0.1", "private"],
      ["100.64.0.1", "carrierGradeNat"],
      ["169.254.169.254", "linkLocal"],
      ["fe80::1", "linkLocal"],
      ["fc00::1", "uniqueLocal"],
      ["0.0.0.0", "unspecified"],
      ["::", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["ff02::1", "multicast"],
      ["255.255.255.255", "broadcast"],
      ["192.0.2.1", "reserved"],
      ["not-an-ip", "invalid"],
    ];
    for (const [address, range] of cases)
      it(`${address} -> ${range ?? "allowed"}`, () => {
        assert.equal(forbiddenRange(address, false), range);
      });
    it("allows loopback, and only loopback, when private targets are allowed", () => {
      assert.equal(forbiddenRange("127.0.0.1", true), null);
      assert.equal(forbiddenRange("10.0.0.1", true), "private");
      assert.equal(forbiddenRange("169.254.169.254", true), "linkLocal");
    });
  });

  describe("assertPublicTarget()", () => {
    it("refuses a host name that resolves to a private address, even when others are public", async () => {
      const lookup = fakeLookup(["93.184.215.14", "10.0.0.7"]);
      await assert.rejects(
        assertPublicTarget(new URL("https://shop.example.com"), { allowLoopback: false, lookup }),
        /resolves to a forbidden address \(private\)/,
      );
    });

    it("accepts a host name that resolves only to public addresses", async () => {
      await assertPublicTarget(new URL("https://shop.example.com"), {
        allowLoopback: false,
        lookup: fakeLookup(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]),
      });
    });

    it("refuses internal names without asking DNS", async () => {
      const asked: string[] = [];
      for (const host of [
        "localhost",
        "a.localhost",
        "metadata.google.internal",
        "printer.local",
        "intranet",
        "shop.invalid",
        "shop.test",
        "1.0.0.10.in-addr.arpa",
      ]) {
        await assert.rejects(
          assertPublicTarget(new URL(`http://${host}/`), {
            allowLoopback: false,
            lookup: fakeLookup(["93.184.215.14"], asked),
          }),
          /internal host name/,
        );
      }
      assert.deepEqual(asked, []);
    });

    it("refuses a name that does not resolve", async () => {
      const lookup = ((_h: string, _o: unknown, cb: (e: Error) => void) => {
        cb(Object.assign(new Error("nope"), { code: "ENOTFOUND" }));
      }) as unknown as Lookup;
      await assert.rejects(
        assertPublicTarget(new URL("https://gone.example.com"), { allowLoopback: false, lookup }),
        /does not resolve/,
      );
    });
  });
});
