// The reports a contractor holding a job may make next (updateJobStatus), all read from the status machine
// (orders/state.ts): the forward step it reports, a step ahead, and giving the job back. Never `cancelled`.
import { DomainError } from "../../errors.js";
import {
  isReported,
  mayGiveBack,
  nextStep,
  reportedAhead,
  type JobStep,
  type OrderLifecycleStatus,
} from "../orders/state.js";

export type { JobStep };

/** The steps the holder may report from `status`, in the order it would take them. */
export function jobSteps(status: OrderLifecycleStatus): JobStep[] {
  const forward = nextStep(status);
  const ahead = reportedAhead(status);
  const steps: JobStep[] = forward && isReported(forward) ? [forward] : [];
  if (ahead && isReported(ahead)) steps.push(ahead);
  if (mayGiveBack(status)) steps.push("unable_to_attend");
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
