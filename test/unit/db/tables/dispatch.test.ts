// The dispatch tables' row types name exactly the columns the migrations create: each list below must have every
// key of its row type and no other (tsc), and must match the migrated table's columns (this test).
import { strict as assert } from "node:assert";
import { createDb, type Db } from "../../../../server/db/knex.js";
import { migrate } from "../../../../server/db/migrate.js";
import type {
  ContractorBookingRow,
  ContractorRow,
  OrderEventRow,
  OrderRow,
  QuoteRow,
  SandboxClockAdvanceRow,
  TechnicianSlotRow,
} from "../../../../server/db/tables/dispatch.js";

type Columns<Row> = Record<keyof Row, true>;

const declared = {
  contractors: {
    id: true,
    ref: true,
    name: true,
    trades: true,
    service_areas: true,
    hourly_rate_cents: true,
    base_response_minutes: true,
    emergency_capable: true,
    active: true,
    time_zone: true,
    working_hours: true,
    concurrent_jobs: true,
    jobs_per_day: true,
    base_zip: true,
    created_at: true,
  } satisfies Columns<ContractorRow>,
  quotes: {
    id: true,
    principal: true,
    account: true,
    environment: true,
    trade: true,
    state: true,
    urgency: true,
    available: true,
    estimated_cost_cents: true,
    contractor_id: true,
    expires_at: true,
    matched_contractors: true,
    latency_ms: true,
    created_at: true,
  } satisfies Columns<QuoteRow>,
  orders: {
    id: true,
    account: true,
    environment: true,
    key_id: true,
    reference_id: true,
    quote_id: true,
    idempotency_key: true,
    request_hash: true,
    status: true,
    trade: true,
    state: true,
    location: true,
    urgency: true,
    description: true,
    nte_cents: true,
    quoted_cost_cents: true,
    contractor_id: true,
    estimated_response_minutes: true,
    callback_url: true,
    final_cost_cents: true,
    dispatch_latency_ms: true,
    response_status: true,
    response_body: true,
    created_at: true,
    updated_at: true,
    cancellation: true,
    escalated_at: true,
    escalation_reason: true,
    escalation_deadline_at: true,
    eta_at: true,
    eta_updated_at: true,
    eta_source: true,
    arrival_window_start: true,
    arrival_window_end: true,
    sandbox_scenario: true,
    window_fixed: true,
  } satisfies Columns<OrderRow>,
  contractor_bookings: {
    order_id: true,
    environment: true,
    contractor_id: true,
    window_start: true,
    window_end: true,
    seat: true,
    local_day: true,
    day_seat: true,
    arrival_at: true,
    busy_from: true,
    busy_until: true,
    drive_minutes: true,
  } satisfies Columns<ContractorBookingRow>,
  technician_slots: {
    environment: true,
    contractor_id: true,
    technician: true,
    slot_start: true,
    order_id: true,
  } satisfies Columns<TechnicianSlotRow>,
  order_events: {
    id: true,
    order_id: true,
    type: true,
    data: true,
    status: true,
    note: true,
    human_override: true,
    final_cost_cents: true,
    at: true,
    seq: true,
    account: true,
    environment: true,
    previous_status: true,
    reference_id: true,
    contractor_id: true,
    quoted_cost_cents: true,
  } satisfies Columns<OrderEventRow>,
  sandbox_clock_advances: {
    account: true,
    claim: true,
    started_at: true,
    renewed_at: true,
  } satisfies Columns<SandboxClockAdvanceRow>,
};

describe("dispatch table types", () => {
  let db: Db;
  before(async () => {
    db = createDb("pglite://memory");
    await migrate(db);
  });
  after(() => db.destroy());

  for (const [table, columns] of Object.entries(declared))
    it(`declares every column of ${table} and no other`, async () => {
      const rows = await db("information_schema.columns")
        .where({ table_schema: "public", table_name: table })
        .select<{ column_name: string }[]>("column_name");
      const migrated = rows.map((row) => row.column_name).sort();
      assert.deepEqual(Object.keys(columns).sort(), migrated);
    });
});
