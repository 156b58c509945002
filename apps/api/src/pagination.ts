import Joi from "joi";
import type { Request, Response } from "express";
import { AppError } from "@outreach/core";
import { sendJson, sendJsonText } from "./send-json.js";
import { fields, isUuid } from "./validation.js";

/** The largest page of any list. */
export const MAX_PAGE_SIZE = 1000;

/** Query parameters of a list that can grow: ?limit=1..1000 (default `defaultLimit`)&starting_after=<id>. */
export function pageParams(defaultLimit: number) {
  return {
    limit: fields.limit(MAX_PAGE_SIZE, defaultLimit),
    starting_after: Joi.string().max(100),
  };
}

/** The page parameters of most lists: 100 rows by default. */
export const pageQuery = pageParams(100);

/**
 * What a list service takes: the page size and, optionally, the id of the row
 * to continue after. It reads rowsForPage(limit) rows; the route answers with sendPage.
 */
export interface PageInput {
  limit: number;
  startingAfter?: string;
}

/**
 * The rows a list service reads for a page of `limit`: one more, so sendPage
 * can tell whether another page follows without counting the rows.
 */
export function rowsForPage(limit: number): number {
  return limit + 1;
}

/** The row a page continues after. */
export interface Cursor {
  id: string;
  createdAt: Date;
}

/** Newest first; the id breaks ties between rows written in the same millisecond (e.g. one bulk import). */
export const newestFirst = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The rows that come after `cursor` in newestFirst order. */
export function after(cursor: Cursor) {
  return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
}

/**
 * Looks up starting_after among the caller's own rows (`find` must scope by account,
 * and by `owner` when given: "this campaign"); `what` names the resource ("contact", "outreach").
 * An id that is malformed, unknown or another account's gives the same 422.
 */
export async function resolveCursor(startingAfter: string | undefined, what: string, find: (id: string) => Promise<Cursor | null>, owner = "this account"): Promise<Cursor | undefined> {
  if (startingAfter === undefined) return undefined;
  const cursor = isUuid(startingAfter) ? await find(startingAfter) : null;
  if (!cursor) {
    const message = `starting_after must be the id of ${/^[aeiou]/i.test(what) ? "an" : "a"} ${what} of ${owner}`;
    throw new AppError("validation_failed", message, { errors: [{ field: "starting_after", message }] });
  }
  return cursor;
}

/** host, host:port, [v6]:port: anything else in a Host header makes the Link relative rather than echo it. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The URL of the page after `lastId`: the request's own path and query with
 * starting_after and limit set. Absolute on the scheme and host the client
 * called (X-Forwarded-Proto/-Host only from proxies TRUST_PROXY trusts), so a
 * client that calls the API by an internal name follows it to the same place;
 * relative when the Host header is not a plain host.
 */
function nextPageUrl(req: Request, lastId: string, limit: number): string {
  const url = new URL(req.originalUrl, "http://next.invalid");
  url.searchParams.set("limit", String(limit));
  url.searchParams.set("starting_after", lastId);
  const host = req.host;
  const base = host && PLAIN_HOST.test(host) ? `${req.protocol}://${host}` : "";
  return `${base}${url.pathname}${url.search}`;
}

/** The first `limit` of `rows` (read with rowsForPage(limit)), and whether more follow. */
function splitPage<Row>(rows: Row[], limit: number): { page: Row[]; hasMore: boolean } {
  const hasMore = rows.length > limit;
  return { page: hasMore ? rows.slice(0, limit) : rows, hasMore };
}

/**
 * A list page as one object (for an MCP tool, whose result must be an object):
 * the rows, whether more follow, and the starting_after of the next page.
 */
export function pageObject<Row>(rows: Row[], limit: number, serialize: (row: Row) => unknown, idOf: (row: Row) => string = (row) => (row as { id: string }).id) {
  const { page, hasMore } = splitPage(rows, limit);
  return { data: page.map(serialize), has_more: hasMore, next_starting_after: hasMore ? idOf(page[page.length - 1]!) : null };
}

/**
 * Answers a list: the first `limit` of `rows` (read with rowsForPage(limit))
 * as a bare JSON array, with `X-Has-More: true|false` and, when another page
 * follows, `Link: <next page>; rel="next"`. `idOf` is the id starting_after
 * takes (the row's id unless given).
 */
export function sendPage<Row extends { id: string }>(req: Request, res: Response, rows: Row[], limit: number, serialize: (row: Row) => unknown): void;
export function sendPage<Row>(req: Request, res: Response, rows: Row[], limit: number, serialize: (row: Row) => unknown, idOf: (row: Row) => string): void;
export function sendPage<Row>(req: Request, res: Response, rows: Row[], limit: number, serialize: (row: Row) => unknown, idOf: (row: Row) => string = (row) => (row as { id: string }).id): void {
  const { page, hasMore } = splitPage(rows, limit);
  setPageHeaders(req, res, hasMore ? idOf(page[page.length - 1]!) : null, limit);
  sendJson(res, page.map(serialize));
}

/** sendPage for rows the database gave as JSON text already (read with rowsForPage(limit)): the same headers, their texts as the array. */
export function sendJsonRows(req: Request, res: Response, rows: Array<{ id: string; json: string }>, limit: number): void {
  const { page, hasMore } = splitPage(rows, limit);
  setPageHeaders(req, res, hasMore ? page[page.length - 1]!.id : null, limit);
  sendJsonText(res, `[${page.map((row) => row.json).join(",")}]`);
}

/** X-Has-More, and the Link of the page after `nextAfter` (null: no page follows). */
function setPageHeaders(req: Request, res: Response, nextAfter: string | null, limit: number): void {
  res.setHeader("X-Has-More", String(nextAfter !== null));
  if (nextAfter !== null) res.setHeader("Link", `<${nextPageUrl(req, nextAfter, limit)}>; rel="next"`);
}
