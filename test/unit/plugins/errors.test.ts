import { strict as assert } from "node:assert";
import Hapi from "@hapi/hapi";
import Joi from "joi";
import { errorsPlugin } from "../../../server/plugins/errors.js";
import { loggingPlugin } from "../../../server/plugins/logging.js";
import { requestIdPlugin } from "../../../server/plugins/request-id.js";
import { validationFailAction } from "../../../server/plugins/validation.js";
import {
  DomainError,
  EntitlementError,
  OAuthError,
  domainErrorCodes,
  type DomainErrorCode,
} from "../../../server/services/errors.js";

/** An error carrying a driver code (Postgres SQLSTATE or Node errno), as pg and PGlite raise them. */
const coded = (code: string, message = "driver error") => Object.assign(new Error(message), { code });

interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  instance: string;
  request_id: string;
  errors?: { pointer: string; message: string }[];
  retry_after_seconds?: number;
}

/** A Hapi server with the errors plugin (and a silent logger) and one route that throws `thrown` (no socket: server.inject). */
async function serverThrowing(thrown: () => unknown): Promise<Hapi.Server> {
  const server = Hapi.server();
  // hapi-pino (silent) gives requests the logger the errors plugin writes to, as in the real server
  await server.register({ plugin: loggingPlugin, options: { level: "silent" } });
  await server.register([requestIdPlugin, errorsPlugin]);
  server.route({
    method: "GET",
    path: "/boom",
    handler: () => {
      throw thrown();
    },
  });
  server.route({
    method: "POST",
    path: "/validated",
    options: {
      validate: {
        payload: Joi.object({ name: Joi.string().max(3).required(), count: Joi.number().integer() }),
        failAction: validationFailAction,
        options: { abortEarly: false },
      },
    },
    handler: () => ({ ok: true }),
  });
  return server;
}

async function problemOf(thrown: () => unknown, init: Hapi.ServerInjectOptions = { url: "/boom" }) {
  const server = await serverThrowing(thrown);
  const res = await server.inject(init);
  return { res, body: JSON.parse(res.payload) as Problem };
}

describe("errors plugin", () => {
  describe("DomainError kinds", () => {
    const cases: [DomainErrorCode, number, string][] = [
      ["malformed_seal", 400, "Bad Request"],
      ["missing_credential", 401, "Unauthorized"],
      ["live_key", 403, "Forbidden"],
      ["seal_not_found", 404, "Not Found"],
      ["quote_expired", 409, "Conflict"],
      ["quote_mismatch", 422, "Validation failed"],
      ["too_many_streams", 429, "Too Many Requests"],
      ["not_ready", 503, "Service Unavailable"],
    ];
    for (const [code, status, title] of cases) {
      const kind = domainErrorCodes[code];
      it(`answers kind ${kind} with ${status} problem+json carrying the stable code`, async () => {
        const { res, body } = await problemOf(() => new DomainError(kind, code, "what happened"));
        assert.equal(res.statusCode, status);
        assert.match(String(res.headers["content-type"]), /^application\/problem\+json/);
        assert.deepEqual(
          { status: body.status, title: body.title, code: body.code, detail: body.detail, type: body.type },
          {
            status,
            title,
            code,
            detail: "what happened",
            type: `https://dispatch.example/problems/${code.replace(/_/g, "-")}`,
          },
        );
        assert.equal(body.instance, "/boom");
        assert.match(body.request_id, /^req_/);
      });
    }

    it("cuts a long value a message repeats to its start and length, in the detail and in each field", async () => {
      const id = "x".repeat(5001);
      const { body } = await problemOf(
        () =>
          new DomainError("not_found", "not_found", `No order ${id} for this account.`, {
            errors: [{ pointer: `/${"k".repeat(300)}`, message: `"end" (${"9".repeat(200)}) is not a date-time` }],
          }),
      );
      assert.equal(body.detail, `No order ${"x".repeat(60)}… (5001 characters) for this account.`);
      assert.deepEqual(body.errors, [
        {
          pointer: `/${"k".repeat(59)}… (301 characters)`,
          message: `"end" (${"9".repeat(59)}… (202 characters) is not a date-time`,
        },
      ]);
    });

    it("cuts a message of many words at a thousand characters, saying its length", async () => {
      const { body } = await problemOf(() => new DomainError("validation", "validation_failed", "word ".repeat(1200)));
      assert.equal(body.detail, `${"word ".repeat(200)}… (6000 characters)`);
    });

    it("carries retry_after_seconds into the body and the Retry-After header", async () => {
      const { res, body } = await problemOf(
        () => new DomainError("rate_limited", "too_many_streams", "slow down", { retryAfterSeconds: 7 }),
      );
      assert.equal(body.retry_after_seconds, 7);
      assert.equal(res.headers["retry-after"], "7");
    });
  });

  describe("joi validation (validationFailAction)", () => {
    const cases: [string, object, number, string, string[]][] = [
      ["one field too long", { name: "abcd" }, 422, "validation_failed", ["/name"]],
      ["two failing fields", { name: 5, count: 1.5 }, 422, "validation_failed", ["/name", "/count"]],
      ["a missing required field", {}, 422, "validation_failed", ["/name"]],
      ["an array instead of an object", [1], 400, "malformed_body", []],
    ];
    for (const [name, payload, status, code, pointers] of cases) {
      it(`answers ${name} with ${status} ${code}`, async () => {
        const { res, body } = await problemOf(() => null, { method: "POST", url: "/validated", payload });
        assert.equal(res.statusCode, status);
        assert.equal(body.code, code);
        assert.deepEqual(
          (body.errors ?? []).map((e) => e.pointer),
          pointers,
        );
      });
    }
  });

  describe("database and driver errors", () => {
    const cases: [string, () => Error, number, string][] = [
      ["unique violation 23505", () => coded("23505"), 409, "conflict"],
      ["admin shutdown 57P01", () => coded("57P01"), 503, "database_unavailable"],
      ["cannot connect now 57P03", () => coded("57P03"), 503, "database_unavailable"],
      ["connection failure 08006", () => coded("08006"), 503, "database_unavailable"],
      ["ECONNREFUSED", () => coded("ECONNREFUSED"), 503, "database_unavailable"],
      ["statement timeout 57014", () => coded("57014"), 503, "database_timeout"],
      ["a pool timeout message", () => new Error("Knex: Timeout acquiring a connection"), 503, "database_unavailable"],
      [
        "'Connection terminated' message",
        () => new Error("Connection terminated unexpectedly"),
        503,
        "database_unavailable",
      ],
      ["another SQLSTATE (23503 foreign key)", () => coded("23503"), 500, "internal_error"],
      ["a plain bug", () => new TypeError("x is undefined"), 500, "internal_error"],
    ];
    for (const [name, thrown, status, code] of cases) {
      it(`maps ${name} to ${status} ${code}`, async () => {
        const { res, body } = await problemOf(thrown);
        assert.equal(res.statusCode, status);
        assert.equal(body.code, code);
        if (status === 503) assert.equal(res.headers["retry-after"], "5");
        if (status === 500) assert.doesNotMatch(res.payload, /undefined|driver error/);
      });
    }
  });

  describe("Hapi's own errors", () => {
    it("answers an unknown path with 404 not_found", async () => {
      const { res, body } = await problemOf(() => null, { url: "/nowhere" });
      assert.equal(res.statusCode, 404);
      assert.equal(body.code, "not_found");
    });

    it("answers a wrong method on a routed path with 405 and Allow", async () => {
      const { res, body } = await problemOf(() => null, { method: "DELETE", url: "/boom" });
      assert.equal(res.statusCode, 405);
      assert.equal(body.code, "method_not_allowed");
      assert.equal(res.headers.allow, "GET, HEAD");
    });

    it("answers an unparseable JSON body with 400 malformed_body", async () => {
      const init = { method: "POST", url: "/validated", payload: "{", headers: { "content-type": "application/json" } };
      const { res, body } = await problemOf(() => null, init);
      assert.equal(res.statusCode, 400);
      assert.equal(body.code, "malformed_body");
    });
  });

  describe("non-problem formats", () => {
    it("answers EntitlementError with the fixed 402 body", async () => {
      const entitlement = {
        error: "payment_required" as const,
        message: "no",
        entitled_credential: "key",
        provisioning_contact: "ops@example.test",
        free_alternatives: [],
      };
      const { res } = await problemOf(() => new EntitlementError(entitlement));
      assert.equal(res.statusCode, 402);
      assert.deepEqual(JSON.parse(res.payload), entitlement);
    });

    it("answers OAuthError 401 in the RFC 6749 format with WWW-Authenticate and no-store", async () => {
      const { res } = await problemOf(() => new OAuthError("invalid_client", "bad secret"));
      assert.equal(res.statusCode, 401);
      assert.deepEqual(JSON.parse(res.payload), { error: "invalid_client", error_description: "bad secret" });
      assert.equal(res.headers["cache-control"], "no-store");
      assert.match(String(res.headers["www-authenticate"]), /^Basic /);
    });

    // Every code of the contract's OAuthError enum: RFC 6749 §5.2 gives 401 to invalid_client only, RFC 8628 429.
    const oauthCases: [OAuthError["error"], number][] = [
      ["invalid_request", 400],
      ["invalid_client", 401],
      ["invalid_grant", 400],
      ["unauthorized_client", 400],
      ["unsupported_grant_type", 400],
      ["invalid_scope", 400],
      ["invalid_client_metadata", 400],
      ["slow_down", 429],
    ];
    for (const [error, status] of oauthCases)
      it(`answers OAuthError ${error} with ${status} in the RFC 6749 format`, async () => {
        const { res } = await problemOf(() => new OAuthError(error, "why", 1));
        assert.equal(res.statusCode, status);
        assert.deepEqual(JSON.parse(res.payload), { error, error_description: "why" });
      });
  });
});
