// Trusted proxies: X-Forwarded-For is believed only from a configured proxy.
import assert from "node:assert/strict";
import type { Request } from "@hapi/hapi";
import { clientBucketOf, clientIpOf, isTrustedProxy } from "../../../server/plugins/client-ip.js";

const request = (remoteAddress: string, forwarded?: string) =>
  ({ info: { remoteAddress }, headers: forwarded ? { "x-forwarded-for": forwarded } : {} }) as unknown as Request;

describe("client-ip", () => {
  describe("clientIpOf()", () => {
    it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
      assert.equal(clientIpOf(request("198.51.100.1", "1.2.3.4"), ["10.0.0.1"]), "198.51.100.1");
    });
    it("ignores it entirely when no proxy is configured", () => {
      assert.equal(clientIpOf(request("198.51.100.1", "1.2.3.4"), []), "198.51.100.1");
    });
    it("takes the nearest untrusted hop behind trusted proxies (a spoofed left part is ignored)", () => {
      assert.equal(clientIpOf(request("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2"), ["10.0.0.0/24"]), "203.0.113.5");
    });
    it("reads IPv4-mapped peers as IPv4", () => {
      assert.equal(clientIpOf(request("::ffff:10.0.0.1", "203.0.113.5"), ["10.0.0.1"]), "203.0.113.5");
    });
    it("answers the same for a repeated address, also after 25,000 distinct forged hops have filled its memo", () => {
      const peer = request("::ffff:198.51.100.7");
      assert.equal(clientIpOf(peer, []), "198.51.100.7");
      for (let i = 0; i < 25_000; i++) {
        const forged = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}, 2001:db8::1:${i.toString(16)}`;
        assert.equal(clientIpOf(request("10.0.0.1", forged), ["10.0.0.0/8"]), `2001:db8::1:${i.toString(16)}`);
      }
      assert.equal(clientIpOf(peer, []), "198.51.100.7");
      assert.equal(clientIpOf(request(" 198.51.100.7 "), []), "198.51.100.7");
      assert.equal(clientIpOf(request("not-an-address"), []), "not-an-address");
    });
  });
  describe("clientBucketOf()", () => {
    const cases: [string, string][] = [
      ["198.51.100.7", "198.51.100.7"],
      ["::ffff:198.51.100.7", "198.51.100.7"],
      ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
      ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
      ["2001:db8:1:3::1", "2001:db8:1:3::/64"],
      ["fe80::1%eth0", "fe80::/64"],
      ["not-an-address", "not-an-address"],
    ];
    for (const [peer, bucket] of cases)
      it(`keys ${peer} as ${bucket}`, () => {
        assert.equal(clientBucketOf(request(peer), []), bucket);
      });
  });
  describe("isTrustedProxy()", () => {
    it("matches addresses and CIDR ranges of the same family only", () => {
      assert.ok(isTrustedProxy("10.1.2.3", ["10.0.0.0/8"]));
      assert.ok(!isTrustedProxy("::1", ["10.0.0.0/8"]));
      assert.ok(isTrustedProxy("::1", ["::1"]));
    });
  });
});
