import { executor, type Queryable } from "./executor.js";

/* Statements on api_keys: when a key was last used (never moved backwards). */

/** The key was used at `at`: its lastUsedAt becomes `at` unless it is later already. */
export async function touchApiKeyLastUsed(q: Queryable, apiKeyId: string, at: Date): Promise<void> {
  await executor(q).execute(`UPDATE api_keys SET "lastUsedAt" = GREATEST(COALESCE("lastUsedAt", $1), $2) WHERE id = $3::uuid`, [at, at, apiKeyId]);
}

/** The same for many keys in one statement (parallel arrays: ids, ISO times). */
export async function recordApiKeysLastUsed(q: Queryable, apiKeyIds: string[], ats: string[]): Promise<void> {
  await executor(q).execute(
    `UPDATE api_keys AS k SET "lastUsedAt" = GREATEST(COALESCE(k."lastUsedAt", v.t), v.t)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, t) WHERE k.id = v.id`,
    [apiKeyIds, ats],
  );
}
