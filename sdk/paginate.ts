// Auto-pagination for list operations: GET paths with a `cursor` query parameter and `next_cursor` in the body.
import type { Client } from "openapi-fetch";
import { createApiError } from "./errors.js";
import type { paths } from "./generated/openapi.js";

type Get<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
type PageOf<P extends keyof paths> =
  Get<P> extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;

/** Paths whose GET takes a `cursor` and answers `{ items, next_cursor }`. */
export type ListPath = {
  [P in keyof paths]: Get<P> extends { parameters: { query?: { cursor?: string } } }
    ? PageOf<P> extends { items: unknown[]; next_cursor: string | null }
      ? P
      : never
    : never;
}[keyof paths];

export type ListItem<P extends ListPath> = PageOf<P> extends { items: (infer I)[] } ? I : never;
type ListParams<P extends ListPath> = Get<P> extends { parameters: infer Q } ? Q : never;

type LooseGet = (
  path: string,
  init: { params: Record<string, unknown> },
) => Promise<{ data?: { items: unknown[]; next_cursor: string | null }; error?: unknown; response: Response }>;

/** Yields every item of every page, following `next_cursor` until it is null; throws DispatchApiError on a failure. */
export async function* paginate<P extends ListPath>(
  client: Client<paths>,
  path: P,
  init: { params?: Partial<ListParams<P>>; maxPages?: number } = {},
): AsyncGenerator<ListItem<P>, void, undefined> {
  const params = (init.params ?? {}) as { query?: Record<string, unknown> } & Record<string, unknown>;
  let cursor: string | null | undefined = params.query?.cursor as string | undefined;
  // A bound on pages so a server that keeps answering the same cursor cannot loop forever.
  for (let page = 0; page < (init.maxPages ?? 10_000); page++) {
    const query = { ...params.query, ...(cursor ? { cursor } : {}) };
    const { data, error, response } = await (client.GET as unknown as LooseGet)(path, {
      params: { ...params, query },
    });
    if (!response.ok || !data) throw createApiError(response, error);
    for (const item of data.items) yield item as ListItem<P>;
    if (!data.next_cursor || data.next_cursor === cursor) return;
    cursor = data.next_cursor;
  }
}
