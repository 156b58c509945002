import { insertApiBlocklistEntries, type Db } from "@outreach/db";

export interface AddBlocklistEntriesInput {
  /** lower-cased addresses */
  emails: string[];
  /** lower-cased host names, without "@" */
  domains: string[];
  reason: string | null;
}

export interface AddBlocklistEntriesResult {
  added: number;
  alreadyBlocked: number;
}

/**
 * Adds addresses and domains to the account's blocklist in one statement; an
 * existing entry is kept as it is (its reason and source included). Counts are
 * over the distinct values sent: added now, or blocked before.
 */
export async function addBlocklistEntries(db: Db, accountId: string, input: AddBlocklistEntriesInput): Promise<AddBlocklistEntriesResult> {
  const emails = [...new Set(input.emails)];
  const domains = [...new Set(input.domains)];
  const kinds = [...emails.map(() => "email"), ...domains.map(() => "domain")];
  const values = [...emails, ...domains];
  const added = await insertApiBlocklistEntries(db, accountId, kinds, values, input.reason);
  return { added, alreadyBlocked: values.length - added };
}
