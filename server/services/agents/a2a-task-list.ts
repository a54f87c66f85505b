// ListTasks over one caller's kept tasks, answered as the SDK's InMemoryTaskStore answers it: newest status first,
// filtered by context, state and status time, paged by a cursor (the last task's status time and id, base64).
import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";

const defaultPageSize = 50;
const timestampOf = (task: Task) => task.status?.timestamp ?? "";
const cursorOf = (task: Task) => Buffer.from(`${timestampOf(task)}|${task.id}`).toString("base64");

/** The tasks after the cursor; none when its task is gone (evicted), as the SDK answers. */
function afterCursor(sorted: Task[], pageToken: string): Task[] {
  const [timestamp, ...id] = Buffer.from(pageToken, "base64").toString("utf8").split("|");
  if (id.length === 0) throw new RequestMalformedError("Invalid page token format.");
  const at = sorted.findIndex((task) => timestampOf(task) === timestamp && task.id === id.join("|"));
  return at === -1 ? [] : sorted.slice(at + 1);
}

function matching(tasks: Iterable<Task>, params: ListTasksRequest): Task[] {
  const since = params.statusTimestampAfter ? new Date(params.statusTimestampAfter).getTime() : null;
  const anyState = params.status === undefined || params.status === TaskState.TASK_STATE_UNSPECIFIED;
  return [...tasks].filter(
    (task) =>
      (!params.contextId || task.contextId === params.contextId) &&
      (anyState || task.status?.state === params.status) &&
      (since === null || (timestampOf(task) !== "" && new Date(timestampOf(task)).getTime() > since)),
  );
}

const newestFirst = (a: Task, b: Task) => timestampOf(b).localeCompare(timestampOf(a)) || b.id.localeCompare(a.id);

/** One page of `tasks` for a ListTasks request (copies: callers may change what they get). */
export function listTasks(tasks: Iterable<Task>, params: ListTasksRequest): ListTasksResponse {
  const pageSize = params.pageSize ?? defaultPageSize;
  const sorted = matching(tasks, params).sort(newestFirst);
  const rest = params.pageToken ? afterCursor(sorted, params.pageToken) : sorted;
  const page = rest.slice(0, pageSize);
  return {
    tasks: page.map((task) => {
      const copy = structuredClone(task);
      if (!params.includeArtifacts) copy.artifacts = [];
      return copy;
    }),
    nextPageToken: page.length > 0 && rest.length > page.length ? cursorOf(page[page.length - 1]) : "",
    pageSize,
    totalSize: sorted.length,
  };
}
