// The one SSRF guard: IPv6 forms that carry a non-public IPv4 address are refused, and the
// probe and the callback guard agree on every case.
import assert from "node:assert/strict";
import { assertCallbackAllowed, callbackPolicy } from "../../../../server/services/net/callback-guard.js";
import { forbiddenRange, refusalOf } from "../../../../server/services/net/ssrf.js";
import { fakeLookup } from "../../../fixtures/storefronts/fake-dns.js";

const embedded: [string, string][] = [
  ["::127.0.0.1", "loopback"],
  ["::7f00:1", "loopback"],
  ["::a9fe:a9fe", "linkLocal"],
  ["::a00:1", "private"],
  ["::ffff:169.254.169.254", "linkLocal"],
  ["::ffff:0:7f00:1", "rfc6145"],
  ["64:ff9b::a9fe:a9fe", "rfc6052"],
  ["2002:7f00:1::", "6to4"],
  ["2002:a9fe:a9fe::1", "6to4"],
  ["2001:0:7f00:1::1", "teredo"],
];

describe("ssrf guard", () => {
  describe("forbiddenRange()", () => {
    for (const [address, range] of embedded)
      it(`${address} -> ${range}`, () => {
        assert.equal(forbiddenRange(address, false), range);
      });
    it("judges an IPv4-compatible public address as public", () => {
      assert.equal(forbiddenRange("::808:808", false), null);
    });
    it("keeps ordinary public IPv6 allowed", () => {
      assert.equal(forbiddenRange("2606:4700::1111", false), null);
    });
  });

  describe("refusalOf()", () => {
    for (const [address] of embedded)
      it(`refuses http://[${address}]/ and a name resolving to it`, async () => {
        assert.match((await refusalOf(new URL(`http://[${address}]/`), { allowLoopback: false }))!, /forbidden/);
        const lookup = fakeLookup([address]);
        assert.match(
          (await refusalOf(new URL("http://shop.example.com/"), { allowLoopback: false, lookup }))!,
          /forbidden/,
        );
      });
    it("refuses a host that does not resolve", async () => {
      const lookup = ((_h: string, _o: unknown, cb: (e: Error) => void) => {
        cb(Object.assign(new Error("nx"), { code: "ENOTFOUND" }));
      }) as unknown as Parameters<typeof refusalOf>[1]["lookup"];
      assert.match(
        (await refusalOf(new URL("http://nx.example.com/"), { allowLoopback: false, lookup }))!,
        /does not resolve/,
      );
    });
  });

  describe("assertCallbackAllowed()", () => {
    const strict = { allowLoopback: false };
    for (const [address] of embedded)
      it(`answers 422 for a callback to [${address}]`, () =>
        assert.rejects(assertCallbackAllowed(`http://[${address}]/hook`, strict), { code: "validation_failed" }));
    it("refuses an internal name and an unresolvable host, like the probe", async () => {
      await assert.rejects(assertCallbackAllowed("http://metadata.google.internal/", strict), {
        code: "validation_failed",
      });
      const lookup = ((_h: string, _o: unknown, cb: (e: Error) => void) => {
        cb(Object.assign(new Error("nx"), { code: "ENOTFOUND" }));
      }) as unknown as Parameters<typeof refusalOf>[1]["lookup"];
      await assert.rejects(assertCallbackAllowed("http://nx.example.com/", strict, lookup), {
        code: "validation_failed",
      });
    });
    it("accepts a public host", () =>
      assertCallbackAllowed("https://hooks.example.com/x", strict, fakeLookup(["93.184.216.34"])));

    const loopback = "http://127.0.0.1:9/hook";
    const cases: [string, { sandbox: boolean; webhookAllowPrivate: boolean }, string, boolean][] = [
      ["sandbox mode, test key", { sandbox: true, webhookAllowPrivate: false }, "test", true],
      ["sandbox mode, live key", { sandbox: true, webhookAllowPrivate: false }, "live", false],
      ["outside sandbox mode, test key", { sandbox: false, webhookAllowPrivate: false }, "test", false],
      ["WEBHOOK_ALLOW_PRIVATE, live key", { sandbox: true, webhookAllowPrivate: true }, "live", true],
    ];
    for (const [name, config, environment, accepted] of cases)
      it(`${accepted ? "accepts" : "refuses"} a loopback callback: ${name}`, async () => {
        const check = assertCallbackAllowed(loopback, callbackPolicy(config, environment));
        if (accepted) await check;
        else await assert.rejects(check, { code: "validation_failed" });
      });
    it("keeps refusing private ranges to a sandbox test key (loopback only)", () =>
      assert.rejects(
        assertCallbackAllowed(
          "http://10.0.0.1/h",
          callbackPolicy({ sandbox: true, webhookAllowPrivate: false }, "test"),
        ),
        {
          code: "validation_failed",
        },
      ));
  });
});
