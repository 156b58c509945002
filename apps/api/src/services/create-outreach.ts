import type { Db } from "@outreach/db";

export interface CreateOutreachInput {
  name: string;
  uniqueContacts: boolean;
}

/** A new outreach has no campaigns yet; campaigns join it through their outreach_id. */
export async function createOutreach(db: Db, accountId: string, input: CreateOutreachInput) {
  const outreach = await db.outreach.create({ data: { accountId, name: input.name, uniqueContacts: input.uniqueContacts } });
  return { ...outreach, campaigns: [] };
}
