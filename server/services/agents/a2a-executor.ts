// The A2A agent executor: a data part {skill, input} runs a registry capability and completes the task with a data
// artifact, or ends it rejected/failed; a confirming skill (ask-first.ts) ends it `input-required` with its preview.
import { randomUUID } from "node:crypto";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { capabilities } from "./capabilities.js";
import { isRecord } from "../shared/is-record.js";
import {
  capabilityById,
  isDomainError,
  isEntitlementError,
  type CapabilityInvoker,
  type InvokeContext,
} from "./run-capability.js";
import { isConfirmationPreview } from "./ask-first.js";

/** Key of the per-request InvokeContext in ServerCallContext.state. */
export const invokeContextKey = "dispatch.invoke";

interface Outcome {
  state: TaskState;
  text: string;
  data: unknown;
  skill?: string;
}

const dataPart = (value: unknown): Part => ({
  content: { $case: "data", value },
  metadata: undefined,
  filename: "",
  mediaType: "application/json",
});
const textPart = (value: string): Part => ({
  content: { $case: "text", value },
  metadata: undefined,
  filename: "",
  mediaType: "text/plain",
});

const dataOf = (message: Message): Record<string, unknown>[] =>
  message.parts.flatMap((part) => {
    const value: unknown = part.content?.$case === "data" ? part.content.value : undefined;
    return isRecord(value) ? [value] : [];
  });

function skillRequest(message: Message): { skill: string; input: unknown } | null {
  const value = dataOf(message).find((data) => typeof data.skill === "string");
  return value ? { skill: value.skill as string, input: value.input ?? {} } : null;
}

/** The request of a message, or for a bare {confirmation_token}, the task's first request with the token added. */
function requestOf(message: Message, task: Task | undefined): { skill: string; input: unknown } | null {
  const own = skillRequest(message);
  const token = dataOf(message).find((data) => typeof data.confirmation_token === "string")?.confirmation_token;
  if (own || token === undefined || task?.status?.state !== TaskState.TASK_STATE_INPUT_REQUIRED) return own;
  const first = task.history.map(skillRequest).find((request) => request !== null);
  if (!first || !isRecord(first.input)) return null;
  return { skill: first.skill, input: { ...first.input, confirmation_token: token } };
}

type SkillContext = InvokeContext & { log(e: unknown): void };

/** A rejection when the message names no known skill, or the skill needs a credential the caller lacks. */
function refusal(request: ReturnType<typeof skillRequest>, caller: unknown): Outcome | null {
  const skills = capabilities.map((c) => c.id);
  if (!request)
    return {
      state: TaskState.TASK_STATE_REJECTED,
      text: `Send a data part {"skill": …, "input": {…}}; skills: ${skills.join(", ")}.`,
      data: { error: "missing_skill", skills },
    };
  const capability = capabilityById(request.skill);
  if (!capability)
    return {
      state: TaskState.TASK_STATE_REJECTED,
      text: `Unknown skill ${request.skill}; skills: ${skills.join(", ")}.`,
      data: { error: "unknown_skill", skills },
    };
  if (capability.access === "public" || caller) return null;
  const how =
    capability.access === "key_or_token"
      ? "a provisioned key in x-api-key or an OAuth access token as Authorization: Bearer"
      : "a provisioned key in x-api-key";
  return {
    state: TaskState.TASK_STATE_REJECTED,
    text: `${capability.id} needs a credential: send ${how}.`,
    data: { error: "missing_credential" },
  };
}

/** Entitlement refusals reject the task; domain errors fail it with their code; anything else is logged. */
function failure(error: unknown, ctx: SkillContext): Outcome {
  if (isEntitlementError(error)) return { state: TaskState.TASK_STATE_REJECTED, text: error.message, data: error.body };
  if (isDomainError(error))
    return {
      state: TaskState.TASK_STATE_FAILED,
      text: error.message,
      data: {
        error: error.code,
        message: error.message,
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
      },
    };
  ctx.log(error);
  return {
    state: TaskState.TASK_STATE_FAILED,
    text: "Internal error; it has been logged.",
    data: { error: "internal_error" },
  };
}

async function runSkill(
  invoker: CapabilityInvoker,
  message: Message,
  task: Task | undefined,
  ctx: SkillContext,
): Promise<Outcome> {
  const request = requestOf(message, task);
  const refused = refusal(request, ctx.caller);
  if (refused || !request) return refused!;
  const capability = capabilityById(request.skill)!;
  try {
    const data = await invoker.invoke(capability.id, request.input, ctx);
    if (isConfirmationPreview(data))
      return { state: TaskState.TASK_STATE_INPUT_REQUIRED, text: data.message, data, skill: capability.id };
    return { state: TaskState.TASK_STATE_COMPLETED, text: `${capability.id} done.`, data, skill: capability.id };
  } catch (error) {
    return failure(error, ctx);
  }
}

function agentMessage(taskId: string, contextId: string, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function publishOutcome(bus: ExecutionEventBus, taskId: string, contextId: string, outcome: Outcome) {
  if (outcome.state === TaskState.TASK_STATE_COMPLETED) {
    const artifact = {
      artifactId: randomUUID(),
      name: outcome.skill!,
      description: `Result of ${outcome.skill}.`,
      parts: [dataPart(outcome.data)],
      metadata: undefined,
      extensions: [],
    };
    bus.publish(
      AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }),
    );
  }
  const parts =
    outcome.state === TaskState.TASK_STATE_COMPLETED
      ? [textPart(outcome.text)]
      : [textPart(outcome.text), dataPart(outcome.data)];
  const status = {
    state: outcome.state,
    message: agentMessage(taskId, contextId, parts),
    timestamp: new Date().toISOString(),
  };
  bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status, metadata: undefined }));
}

export function createDispatchExecutor(invoker: CapabilityInvoker): AgentExecutor {
  return {
    async execute(requestContext: RequestContext, bus: ExecutionEventBus) {
      const { taskId, contextId, userMessage, task } = requestContext;
      const ctx = requestContext.context.state.get(invokeContextKey) as InvokeContext & { log(e: unknown): void };
      const working = { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() };
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: working,
          artifacts: [],
          // a continued task's history already holds the new message (the SDK appends it before executing)
          history: [...(task?.history ?? []).filter((m) => m.messageId !== userMessage.messageId), userMessage],
          metadata: undefined,
        }),
      );
      publishOutcome(bus, taskId, contextId, await runSkill(invoker, userMessage, task, ctx));
      bus.finished();
    },
    // Skills finish within the request; there is nothing left to cancel.
    cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
      bus.finished();
      return Promise.resolve();
    },
  };
}
