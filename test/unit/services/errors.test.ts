import { strict as assert } from "node:assert";
import {
  DomainError,
  domainErrorCodes,
  httpErrorCodes,
  OAuthError,
  type ErrorKind,
} from "../../../server/services/errors.js";

describe("domain errors", () => {
  describe("domainErrorCodes", () => {
    it("gives every kind at least one code", () => {
      const kinds: ErrorKind[] = [
        "bad_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "conflict",
        "validation",
        "rate_limited",
        "unavailable",
      ];
      assert.deepEqual(new Set(Object.values(domainErrorCodes)), new Set(kinds));
    });

    it("names each code in snake_case, once across the domain and HTTP tables but for the shared ones", () => {
      for (const code of [...Object.keys(domainErrorCodes), ...httpErrorCodes])
        assert.match(code, /^[a-z]+(_[a-z]+)*$/);
      const shared = httpErrorCodes.filter((code) => code in domainErrorCodes);
      assert.deepEqual(shared, ["malformed_body", "not_found"]);
    });
  });

  describe("DomainError", () => {
    it("carries the kind its code has in the table", () => {
      const error = new DomainError("conflict", "quote_expired", "expired");
      assert.equal(error.kind, domainErrorCodes[error.code]);
    });

    it("makes a code outside the table, or a kind other than its own, a type error", () => {
      // @ts-expect-error a misspelt code is not in domainErrorCodes
      const typo = new DomainError("conflict", "quote_expird", "expired");
      // @ts-expect-error not_found is a not_found, never a conflict
      const wrongKind = new DomainError("conflict", "not_found", "gone");
      assert.equal(typo.code, "quote_expird");
      assert.equal(wrongKind.kind, "conflict");
    });
  });

  describe("OAuthError", () => {
    it("takes every code of the contract's OAuthError enum, invalid_grant and unauthorized_client included", () => {
      const codes: OAuthError["error"][] = ["invalid_grant", "unauthorized_client", "slow_down"];
      for (const code of codes) assert.equal(new OAuthError(code, "why").error, code);
      // @ts-expect-error a code the contract does not list
      assert.equal(new OAuthError("access_denied", "why").error, "access_denied");
    });
  });
});
