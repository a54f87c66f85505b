// A row of the orders table as Knex returns it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Knex rows are untyped; typing the orders table (an OrderRow interface per column) is the follow-up
export type OrderRow = Record<string, any>;
