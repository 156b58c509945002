import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/* Statements on webhooks (the deliveries' counters; the API's CRUD goes through the client). */

export const webhookFailureColumns = columns({ disabled: "bool?" });

/**
 * One more failed delivery in a row for the webhook, at `at`: disabled (at
 * `at`) when that makes `disableAfter`. True when this failure disabled it.
 */
export async function countWebhookFailure(q: Queryable, webhookId: string, at: Date, disableAfter: number): Promise<boolean> {
  const [updated] = await executor(q).rows<RowOf<typeof webhookFailureColumns>>(
    `
        UPDATE webhooks SET "consecutiveFailures" = "consecutiveFailures" + 1,
          "disabledAt" = CASE WHEN "disabledAt" IS NULL AND "consecutiveFailures" + 1 >= $1 THEN $2 ELSE "disabledAt" END,
          "updatedAt" = $3
        WHERE id = $4::uuid
        RETURNING "disabledAt" = $5 AS disabled`,
    [disableAfter, at, at, webhookId, at],
  );
  return updated?.disabled === true;
}

export const rotatedWebhookColumns = columns({ id: "uuid" });

/**
 * Replaces the account's webhook's signing secret (`id` must be a uuid),
 * keeping the one it replaces as the previous secret until `previousSecretUntil`
 * (SET reads the row as it was before the update): false when it is not there.
 */
export async function replaceWebhookSecret(q: Queryable, accountId: string, id: string, secretEnc: string, previousSecretUntil: Date, now: Date): Promise<boolean> {
  const rows = await executor(q).rows<RowOf<typeof rotatedWebhookColumns>>(
    `
    UPDATE webhooks SET "previousSecretEnc" = "secretEnc", "secretEnc" = $1, "previousSecretUntil" = $2, "updatedAt" = $3
    WHERE id = $4::uuid AND "accountId" = $5::uuid
    RETURNING id`,
    [secretEnc, previousSecretUntil, now, id, accountId],
  );
  return rows.length > 0;
}
