// RFC 8288 `Link: <…>; rel="next"` of a list page: this request's address with `cursor` set to the next page's.
import type { Request, ResponseObject } from "@hapi/hapi";
import { originOf } from "../plugins/origin.js";

export function linkNext(request: Request, response: ResponseObject, nextCursor: string | null): ResponseObject {
  if (!nextCursor) return response;
  const next = new URL(request.url.pathname + request.url.search, originOf(request));
  next.searchParams.set("cursor", nextCursor);
  return response.header("link", `<${next.toString()}>; rel="next"`);
}
