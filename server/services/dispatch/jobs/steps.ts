// The reports a contractor holding a job may make next (updateJobStatus): the forward step (orders/state.ts),
// `on_site` straight from `dispatched`, and giving the job back until on site. Never `cancelled`.
import { DomainError } from "../../errors.js";
import type { Schemas } from "../../../types/contract.js";
import { nextStep, type OrderLifecycleStatus } from "../orders/state.js";

export type JobStep = Schemas["JobStep"];

const reported: readonly string[] = ["en_route", "on_site", "completed"] satisfies JobStep[];
const isReported = (status: string | undefined): status is JobStep => status !== undefined && reported.includes(status);
const givingBack: readonly OrderLifecycleStatus[] = ["dispatched", "en_route"];

/** The steps the holder may report from `status`, in the order it would take them. */
export function jobSteps(status: OrderLifecycleStatus): JobStep[] {
  const forward = nextStep(status);
  const steps: JobStep[] = isReported(forward) ? [forward] : [];
  if (status === "dispatched") steps.push("on_site");
  if (givingBack.includes(status)) steps.push("unable_to_attend");
  return steps;
}

/** 409 invalid_transition unless the holder may report `step` from `status`, naming only the steps it may take. */
export function assertJobStep(job: { id: string; status: OrderLifecycleStatus }, step: JobStep): void {
  const steps = jobSteps(job.status);
  if (steps.includes(step)) return;
  const next = steps.length
    ? `you may report ${steps.join(" or ")} ('dispatch jobs status ${job.id} --status ${steps[0]}')`
    : "it takes no more reports";
  throw new DomainError("conflict", "invalid_transition", `Job ${job.id} is ${job.status}: ${next}, not ${step}.`);
}
