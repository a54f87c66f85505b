// A contractor's base ZIP (issue 42, item 2): the 5-digit ZIP its technicians set off from, which drive times start
// at. Bounded in storage as in the contract: char(5) of digits. Existing contractors get their first service area's
// state's principal ZIP (the central ZIP of its city with the most ZIPs in the `zipcodes` 8.0.0 dataset).
import type { Knex } from "knex";

// The state table as of this migration (server/services/dispatch/geo/base-zip.ts may change later; this must not).
const principalZips: Record<string, string> = {
  AL: "35204",
  AK: "99599",
  AZ: "85013",
  AR: "72205",
  CA: "95816",
  CO: "80208",
  CT: "06112",
  DE: "19801",
  FL: "33134",
  GA: "30309",
  HI: "96823",
  ID: "83705",
  IL: "60608",
  IN: "46296",
  IA: "50301",
  KS: "67201",
  KY: "40205",
  LA: "70139",
  ME: "04104",
  MD: "21201",
  MA: "02210",
  MI: "48216",
  MN: "55405",
  MS: "39269",
  MO: "64106",
  MT: "59103",
  NE: "68132",
  NV: "89102",
  NH: "03107",
  NJ: "08619",
  NM: "87165",
  NY: "10034",
  NC: "28202",
  ND: "58106",
  OH: "45217",
  OK: "73111",
  OR: "97272",
  PA: "19133",
  RI: "02901",
  SC: "29204",
  SD: "57189",
  TN: "38112",
  TX: "77008",
  UT: "84115",
  VT: "05603",
  VA: "24001",
  WA: "98171",
  WV: "25317",
  WI: "53208",
  WY: "82001",
  DC: "20436",
  PR: "00901",
  GU: "96913",
  VI: "00820",
  AS: "96799",
  MP: "96951",
};

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable("contractors", (t) => {
    t.specificType("base_zip", "char(5)");
  });
  const pairs = Object.entries(principalZips);
  await db.raw(
    `update contractors c
        set base_zip = coalesce(z.zip, '10034')
       from contractors x
       left join (values ${pairs.map(() => "(?, ?)").join(", ")}) as z(state, zip)
              on z.state = upper(x.service_areas->0->>'state')
      where x.id = c.id`,
    pairs.flat(),
  );
  await db.raw(`
    alter table contractors
      alter column base_zip set not null,
      add constraint contractors_base_zip_digits check (base_zip ~ '^[0-9]{5}$')`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw("alter table contractors drop constraint contractors_base_zip_digits");
  await db.schema.alterTable("contractors", (t) => {
    t.dropColumn("base_zip");
  });
}
