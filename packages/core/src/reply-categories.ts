/** What a reply says, as the rules, a model or a person sorted it. */
export const REPLY_CATEGORIES = ["interested", "not_interested", "out_of_office", "unsubscribe_request", "wrong_person", "other"] as const;
export type ReplyCategory = (typeof REPLY_CATEGORIES)[number];

/** Who set a reply's category. */
export const REPLY_CATEGORY_SOURCES = ["rules", "model", "manual"] as const;
export type ReplyCategorySource = (typeof REPLY_CATEGORY_SOURCES)[number];

export function isReplyCategory(value: unknown): value is ReplyCategory {
  return typeof value === "string" && (REPLY_CATEGORIES as readonly string[]).includes(value);
}

/** A count per category (every category present, 0 when it has no row), from rows of a GROUP BY category. */
export function countsByCategory(rows: ReadonlyArray<{ category: string; count: number }> = []): Record<ReplyCategory, number> {
  const counts = Object.fromEntries(REPLY_CATEGORIES.map((category) => [category, 0])) as Record<ReplyCategory, number>;
  for (const row of rows) if (isReplyCategory(row.category)) counts[row.category] += row.count;
  return counts;
}
