// An order a background pass cannot move is that order's failure, not the pass's: reported, counted by step and
// cause, and skipped, so one bad row never stops the dispatcher or the sandbox for everyone else.
import type { Tenant } from "../../access/principal.js";

export type PassStep = "reoffer" | "assign" | "replan" | "escalate" | "sandbox_step";

/** The order a pass could not move: its key and tenant. */
export type FailedOrder = Tenant & { id: string };

export interface OrderFailure {
  step: PassStep;
  order: FailedOrder;
  /** Stable across orders: a refusal's SQLSTATE (its message names the value), else the error's code or name. */
  cause: string;
  error: unknown;
}

export type OrderFailed = (step: PassStep, order: FailedOrder, error: unknown) => void;

/** The failure's cause, the same for every order failing the same way (one log line and one series for all). */
export function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code ? code : error.name;
}

/** Runs one order's part of a pass; a failure is reported and answers undefined, so the pass goes on. */
export async function isolated<T>(
  failed: OrderFailed,
  step: PassStep,
  order: FailedOrder,
  work: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    failed(step, order, error);
    return undefined;
  }
}

/** Distinct (step, cause) series kept: causes are codes, so far fewer; a bound should a driver invent more. */
const maxSeries = 200;

/** The failures of one server's passes: counted, and reported once the server says where (`reportTo`). */
export function createOrderFailures() {
  const counts = new Map<string, { step: PassStep; cause: string; count: number }>();
  let report: (failure: OrderFailure) => void = () => undefined;
  const failed: OrderFailed = (step, order, error) => {
    const cause = causeOf(error);
    const key = `${step}|${cause}`;
    const seen = counts.get(key) ?? (counts.size < maxSeries ? { step, cause, count: 0 } : null);
    if (seen) counts.set(key, { ...seen, count: seen.count + 1 });
    report({ step, order, cause, error });
  };
  return {
    failed,
    /** Where each failure goes from now on (the server's throttled log). */
    reportTo(reporter: (failure: OrderFailure) => void): void {
      report = reporter;
    },
    counts: () => [...counts.values()],
  };
}

export type OrderFailures = ReturnType<typeof createOrderFailures>;
