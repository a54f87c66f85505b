// A contractor's base ZIP on every test database: through the admin operations (given, defaulted, kept, moved with
// its areas; a ZIP of another state or one the dataset does not list is 422 naming base_zip and nothing is stored),
// through DISPATCH_FIXTURES, and in storage (existing contractors backfilled by the migration; char(5) of digits).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { createDb, type Db } from "../../server/db/knex.js";
import { migrate } from "../../server/db/migrate.js";
import { mintApiKey } from "../../server/services/access/keys.js";
import { defaultBaseZip } from "../../server/services/dispatch/geo/base-zip.js";
import { zipPoint } from "../../server/services/dispatch/geo/zip-points.js";
import type { Schemas } from "../../server/types/contract.js";
import { fixtureContractor } from "../fixtures/requests.js";
import { migrateThrough } from "../helpers/migrations.js";
import { adminToken, databases, startTestServer, type TestServer } from "../helpers/server.js";

type Contractor = Schemas["Contractor"];
interface Problem {
  status: number;
  code: string;
  errors?: { pointer: string; message: string }[];
}

const base = {
  name: "Base Plumbing",
  trades: ["plumbing"],
  service_areas: [{ state: "TX", cities: ["Austin"], zip_prefixes: ["787"] }],
  hourly_rate_cents: 9000,
  base_response_minutes: 120,
} satisfies Schemas["ContractorInput"];

for (const db of databases()) {
  describe(`contractor base ZIP: admin operations (${db.name})`, function () {
    this.timeout(120_000);
    let t: TestServer;
    const admin = async (path: string, method = "GET", body?: unknown) => {
      const response = await t.fetch(`${t.url}/api/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Contractor & Problem };
    };
    const create = async (name: string, fields: Partial<Schemas["ContractorInput"]> = {}) => {
      const created = await admin("/contractors", "POST", { ...base, name, ...fields });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body;
    };
    const stored = async (name: string) =>
      (await t.app.services.db("contractors").where({ name })).map((r) => r.base_zip);

    before(async () => {
      t = await startTestServer(db, {}, { inject: true });
    });
    after(() => t?.stop());

    it("creates with a base ZIP, shows it in the answer and the list, and stores it", async () => {
      const body = await create("Given Base", { base_zip: "78759" });
      assert.equal(body.base_zip, "78759");
      const list = (await admin("/contractors?state=TX&limit=200")).body as unknown as { items: Contractor[] };
      assert.deepEqual(
        list.items.find((c) => c.id === body.id),
        body,
      );
      assert.deepEqual(await stored("Given Base"), ["78759"]);
    });

    it("takes a base in any state served, not only the first", async () => {
      const body = await create("Second State Base", {
        service_areas: [{ state: "OK" }, { state: "TX", cities: ["Dallas"] }],
        base_zip: "75201",
      });
      assert.equal(body.base_zip, "75201");
    });

    it("defaults the base: the first prefix's central ZIP, else the first city's, else the state's principal ZIP", async () => {
      assert.equal((await create("Prefix Default")).base_zip, "78703");
      const city = await create("City Default", { service_areas: [{ state: "IL", cities: ["springfield"] }] });
      assert.equal(zipPoint(city.base_zip)?.city, "Springfield");
      assert.equal(city.base_zip, defaultBaseZip([{ state: "IL", cities: ["Springfield"] }]));
      const state = await create("State Default", { service_areas: [{ state: "GA" }] });
      assert.equal(zipPoint(state.base_zip)?.city, "Atlanta");
      assert.deepEqual(await stored("State Default"), [state.base_zip]);
    });

    it("updates the base within the states served", async () => {
      const { id } = await create("Moving Base");
      const { status, body } = await admin(`/contractors/${id}`, "PATCH", { base_zip: "78613" });
      assert.equal(status, 200);
      assert.equal(body.base_zip, "78613");
      assert.deepEqual(await stored("Moving Base"), ["78613"]);
    });

    it("keeps the base when the new areas still hold its state, and defaults it when they do not", async () => {
      const { id } = await create("Area Change", { base_zip: "78759" });
      const kept = await admin(`/contractors/${id}`, "PATCH", { service_areas: [{ state: "TX" }, { state: "CA" }] });
      assert.equal(kept.body.base_zip, "78759");
      const moved = await admin(`/contractors/${id}`, "PATCH", {
        service_areas: [{ state: "CA", cities: ["Fresno"] }],
      });
      assert.equal(moved.status, 200);
      assert.equal(zipPoint(moved.body.base_zip)?.city, "Fresno");
      const both = await admin(`/contractors/${id}`, "PATCH", { service_areas: [{ state: "NV" }], base_zip: "89501" });
      assert.deepEqual([both.body.base_zip, both.body.service_areas], ["89501", [{ state: "NV" }]]);
    });

    const refused = [
      {
        what: "a ZIP of another state",
        body: { base_zip: "10001" },
        message: /10001 is in NY, not in a state served \(TX\)/,
      },
      { what: "a ZIP the dataset does not list", body: { base_zip: "99999" }, message: /99999 is not a US ZIP/ },
      { what: "four digits", body: { base_zip: "7870" }, message: /base_zip/ },
      { what: "a ZIP+4", body: { base_zip: "78701-1234" }, message: /base_zip/ },
      { what: "letters", body: { base_zip: "7870a" }, message: /base_zip/ },
    ];
    for (const { what, body, message } of refused)
      it(`refuses ${what} with 422 naming /base_zip, on create and on update, storing nothing`, async () => {
        const name = `Refused ${what}`;
        const created = await admin("/contractors", "POST", { ...base, name, ...body });
        assert.equal(created.status, 422);
        assert.equal(created.body.code, "validation_failed");
        assert.deepEqual([...new Set(created.body.errors?.map((e) => e.pointer))], ["/base_zip"]);
        assert.match(created.body.errors?.[0].message ?? "", message);
        assert.deepEqual(await stored(name), []);
        const existing = await create(`${name} (kept)`, { base_zip: "78759" });
        const updated = await admin(`/contractors/${existing.id}`, "PATCH", body);
        assert.equal(updated.status, 422);
        assert.deepEqual([...new Set(updated.body.errors?.map((e) => e.pointer))], ["/base_zip"]);
        assert.deepEqual(await stored(`${name} (kept)`), ["78759"]);
      });

    it("refuses new areas that leave the given base in no state served, storing neither", async () => {
      const existing = await create("Areas Against Base", { base_zip: "78759" });
      const updated = await admin(`/contractors/${existing.id}`, "PATCH", {
        service_areas: [{ state: "CA" }],
        base_zip: "78701",
      });
      assert.equal(updated.status, 422);
      assert.deepEqual(
        updated.body.errors?.map((e) => e.pointer),
        ["/base_zip"],
      );
      const [row] = await t.app.services.db("contractors").where({ id: existing.id });
      assert.deepEqual([row.base_zip, row.service_areas], ["78759", base.service_areas]);
    });

    it("answers 404 for a base given to no such contractor", async () => {
      const { status } = await admin("/contractors/ctr_nobody", "PATCH", { base_zip: "78701" });
      assert.equal(status, 404);
    });
  });

  describe(`contractor base ZIP: DISPATCH_FIXTURES (${db.name})`, function () {
    this.timeout(120_000);
    const dir = mkdtempSync(join(tmpdir(), "dispatch-base-zip-"));
    let t: TestServer;
    before(async () => {
      const file = join(dir, "fixtures.yaml");
      const contractors = [
        { ...fixtureContractor, base_zip: "99508" },
        { ...fixtureContractor, name: "Juneau Roofing Fixture", service_areas: [{ state: "AK", cities: ["Juneau"] }] },
      ];
      writeFileSync(file, stringify({ contractors, keys: [{ key: mintApiKey("test"), account: "fixture-co" }] }));
      t = await startTestServer(db, { DISPATCH_SANDBOX: "1", DISPATCH_FIXTURES: file });
    });
    after(async () => {
      await t?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("loads a fixture's base ZIP, and defaults one left out", async () => {
      const rows = await t.app.services
        .db("contractors")
        .whereIn("name", ["Anchorage Roofing Fixture", "Juneau Roofing Fixture"])
        .orderBy("name");
      assert.deepEqual(
        rows.map((r) => r.base_zip),
        ["99508", defaultBaseZip([{ state: "AK", cities: ["Juneau"] }])],
      );
      assert.equal(zipPoint(rows[1].base_zip)?.city, "Juneau");
    });

    it("bases every demo contractor at a ZIP in its first area's state", async () => {
      const rows = await t.app.services.db("contractors").whereNot("name", "like", "%Fixture");
      assert.ok(rows.length > 0);
      for (const row of rows) assert.equal(zipPoint(row.base_zip)?.state, row.service_areas[0].state, row.name);
    });
  });

  describe(`contractor base ZIP migration (${db.name})`, function () {
    this.timeout(60_000);
    let created: Awaited<ReturnType<typeof db.create>>;
    let store: Db;
    const old = (id: string, state: string) => ({
      id,
      ref: id,
      name: `Old ${id}`,
      trades: JSON.stringify(["plumbing"]),
      service_areas: JSON.stringify([{ state }, { state: "NY" }]),
      hourly_rate_cents: 9000,
      base_response_minutes: 120,
      time_zone: "America/Chicago",
    });

    before(async () => {
      created = await db.create();
      store = createDb(created.url);
      await migrateThrough(store, "20261129140000_contractor_events");
      await store("contractors").insert([old("ctr_tx", "TX"), old("ctr_il", "IL"), old("ctr_hi", "HI")]);
      await migrate(store);
    });
    after(async () => {
      await store.destroy();
      await created.drop();
    });

    it("gives existing contractors their first state's principal ZIP", async () => {
      const rows = await store("contractors").orderBy("id");
      assert.deepEqual(
        rows.map((r) => [r.id, r.base_zip]),
        [
          ["ctr_hi", "96823"],
          ["ctr_il", "60608"],
          ["ctr_tx", "77008"],
        ],
      );
      for (const row of rows) assert.equal(defaultBaseZip([row.service_areas[0]]), row.base_zip, row.id);
    });

    for (const [what, zip] of [
      ["four digits", "1234"],
      ["letters", "abcde"],
      ["six digits", "123456"],
      ["no base", null],
    ] as const)
      it(`refuses to store ${what}`, async () => {
        await assert.rejects(
          store("contractors").insert({ ...old("ctr_new", "TX"), base_zip: zip as string }), // null too
          /contractors_base_zip_digits|too long|null value|not-null/,
        );
      });
  });
}
