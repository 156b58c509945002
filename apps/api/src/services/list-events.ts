import type { EventType } from "@outreach/core";
import type { Db } from "@outreach/db";
import { after, newestFirst, resolveCursor, rowsForPage, type PageInput } from "../pagination.js";

export interface EventListInput extends PageInput {
  type?: EventType;
}

/** The account's event log, newest first, a page at a time, optionally of one type. */
export async function listEvents(db: Db, accountId: string, input: EventListInput) {
  const cursor = await resolveCursor(input.startingAfter, "event", (id) => db.event.findFirst({ where: { id, accountId }, select: { id: true, createdAt: true } }));
  return db.event.findMany({
    where: { accountId, ...(input.type && { type: input.type }), ...(cursor && after(cursor)) },
    orderBy: newestFirst,
    take: rowsForPage(input.limit),
    select: { id: true, type: true, createdAt: true, data: true },
  });
}
