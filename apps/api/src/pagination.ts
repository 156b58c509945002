import Joi from "joi";
import { AppError } from "@outreach/core";
import { fields, isUuid } from "./validation.js";

/** Query parameters of every list that can grow large: ?limit=1..1000 (default 100)&starting_after=<id>. */
export const pageQuery = {
  limit: fields.limit(1000, 100),
  starting_after: Joi.string().max(100),
};

/** What a list service takes: the page size and, optionally, the id of the row to continue after. */
export interface PageInput {
  limit: number;
  startingAfter?: string;
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
 * Looks up starting_after among the caller's own rows (`find` must scope by account);
 * `what` names the resource ("contact", "outreach").
 * An id that is malformed, unknown or another account's gives the same 422.
 */
export async function resolveCursor(startingAfter: string | undefined, what: string, find: (id: string) => Promise<Cursor | null>): Promise<Cursor | undefined> {
  if (startingAfter === undefined) return undefined;
  const cursor = isUuid(startingAfter) ? await find(startingAfter) : null;
  if (!cursor) {
    const message = `starting_after must be the id of ${/^[aeiou]/i.test(what) ? "an" : "a"} ${what} of this account`;
    throw new AppError("validation_failed", message, { errors: [{ field: "starting_after", message }] });
  }
  return cursor;
}
