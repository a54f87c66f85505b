import { strict as assert } from "node:assert";
import { baseUrlOf, configuredOrigin, statusUrl } from "../../../../server/services/shared/base-url.js";

describe("base URL rule", () => {
  describe("baseUrlOf()", () => {
    const cases: [string, string | null, string, string][] = [
      [
        "PUBLIC_BASE_URL wins over the request's origin",
        "https://dispatch.example",
        "http://127.0.0.1:3000",
        "https://dispatch.example",
      ],
      [
        "PUBLIC_BASE_URL wins over the server's own address",
        "https://dispatch.example",
        "http://0.0.0.0:3000",
        "https://dispatch.example",
      ],
      [
        "without PUBLIC_BASE_URL, the origin the caller reached",
        null,
        "http://127.0.0.1:4010",
        "http://127.0.0.1:4010",
      ],
      [
        "without PUBLIC_BASE_URL, a background job's server address",
        null,
        "http://10.0.0.5:3000",
        "http://10.0.0.5:3000",
      ],
    ];
    for (const [name, publicBaseUrl, origin, expected] of cases)
      it(name, () => {
        assert.equal(baseUrlOf(publicBaseUrl, origin), expected);
      });
  });

  describe("configuredOrigin()", () => {
    it("is the configured listen address, never a guessed localhost", () => {
      assert.equal(configuredOrigin({ host: "10.0.0.5", port: 8080 }), "http://10.0.0.5:8080");
      assert.equal(configuredOrigin({ host: "127.0.0.1", port: 3000 }), "http://127.0.0.1:3000");
    });
  });

  describe("statusUrl()", () => {
    const cases: [string, string][] = [
      ["https://dispatch.example", "https://dispatch.example/api/dispatch/v1/orders/ord_1"],
      ["https://dispatch.example/", "https://dispatch.example/api/dispatch/v1/orders/ord_1"],
      ["https://dispatch.example/base//", "https://dispatch.example/base/api/dispatch/v1/orders/ord_1"],
    ];
    for (const [base, expected] of cases)
      it(`builds ${expected} from ${base}`, () => {
        assert.equal(statusUrl(base, "ord_1"), expected);
      });
  });
});
