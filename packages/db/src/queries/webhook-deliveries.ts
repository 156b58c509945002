import { columns, type RowOf } from "./columns.js";
import { executor, type Queryable } from "./executor.js";

/*
 * Statements on webhook_deliveries and webhook_attempts: the delivery queue
 * (PostgreSQL is the queue: a pending row with its nextAttemptAt is a job),
 * its holds against other workers (attemptingUntil), the record of attempts,
 * the fan-out from the outbox, a redelivery and the retention purge. The
 * leases of accounts are in webhook-account-leases.ts.
 */

/** The columns a claim returns: the delivery's and its webhook's (URL, sealed secrets, disabled). */
const CLAIMED_COLUMNS = `d.id, d."accountId", d."webhookId", d."eventId", d."eventType", d.state::text AS state, d.attempts, d."maxAttempts", d."createdAt",
  w.url, w."secretEnc", w."previousSecretEnc", w."previousSecretUntil", w."disabledAt"`;

export const claimedDeliveryColumns = columns({
  id: "uuid",
  accountId: "uuid",
  webhookId: "uuid",
  eventId: "uuid?",
  eventType: "text",
  state: "text",
  attempts: "int4",
  maxAttempts: "int4",
  createdAt: "timestamptz",
  url: "text",
  secretEnc: "text",
  previousSecretEnc: "text?",
  previousSecretUntil: "timestamptz?",
  disabledAt: "timestamptz?",
});
export type ClaimedDeliveryRow = RowOf<typeof claimedDeliveryColumns>;

/**
 * Holds the delivery until `holdUntil` for the given attempt: only while it is
 * pending, that attempt is the next (attempts = attempt - 1) and no other
 * worker holds it (attemptingUntil passed). undefined when not held.
 */
export async function holdDeliveryForAttempt(q: Queryable, deliveryId: string, attempt: number, holdUntil: Date, now: Date): Promise<ClaimedDeliveryRow | undefined> {
  const [row] = await executor(q).rows<ClaimedDeliveryRow>(
    `
    UPDATE webhook_deliveries d SET "attemptingUntil" = $1
    FROM webhooks w
    WHERE d.id = $2::uuid AND w.id = d."webhookId" AND d.state = 'pending' AND d.attempts = $3
      AND (d."attemptingUntil" IS NULL OR d."attemptingUntil" < $4)
    RETURNING ${CLAIMED_COLUMNS}`,
    [holdUntil, deliveryId, attempt - 1, now],
  );
  return row;
}

export const deliveryBusyColumns = columns({ busy: "bool?" });

/** Whether that attempt of the delivery is under way elsewhere (pending, the next one, held): undefined when the delivery is gone. */
export async function isDeliveryAttemptBusy(q: Queryable, deliveryId: string, attempt: number, now: Date): Promise<boolean | null | undefined> {
  const [current] = await executor(q).rows<RowOf<typeof deliveryBusyColumns>>(
    `
      SELECT state = 'pending' AND attempts = $1 AND "attemptingUntil" >= $2 AS busy FROM webhook_deliveries WHERE id = $3::uuid`,
    [attempt - 1, now, deliveryId],
  );
  return current?.busy;
}

/** Attempts to record, one entry per attempt in each array (parallel columns, as unnest takes them). */
export interface AttemptColumns {
  deliveryIds: string[];
  numbers: number[];
  statusCodes: Array<number | null>;
  errors: Array<string | null>;
  responseExcerpts: Array<string | null>;
  durationsMs: number[];
  /** ISO times the attempts ended */
  ats: string[];
  /** the delivery's state after it: pending (to retry), succeeded or failed */
  states: string[];
  /** ISO times of the next attempt, for those pending */
  nextAttemptAts: Array<string | null>;
  /** webhooks whose consecutive failures a 2xx resets */
  succeededWebhookIds: string[];
}

/**
 * In one statement: the attempt rows (for deliveries still there), the
 * deliveries' new state, and the consecutive failures of `succeededWebhookIds`
 * reset to 0. Rows are locked by id, the order of every writer that waits on them.
 */
export async function recordAttempts(q: Queryable, c: AttemptColumns): Promise<number> {
  return executor(q).execute(
    `
      WITH input AS (
        SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[],
          $5::text[], $6::int[], $7::timestamptz[],
          $8::text[], $9::timestamptz[])
          AS t(id, number, status_code, error, excerpt, duration_ms, at, state, next_attempt_at)
      ), attempts AS (
        INSERT INTO webhook_attempts (id, "deliveryId", number, "statusCode", error, "responseExcerpt", "durationMs", "createdAt")
        -- a delivery deleted meanwhile (with its webhook) has no attempts to record
        SELECT gen_random_uuid(), i.id, number, status_code, error, excerpt, duration_ms, at FROM input i
        WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = i.id)
      ), reset AS (
        UPDATE webhooks SET "consecutiveFailures" = 0
        WHERE id IN (SELECT id FROM webhooks WHERE id = ANY($10::uuid[]) AND "consecutiveFailures" <> 0 ORDER BY id FOR UPDATE)
      ), locked AS (
        -- rows are locked in one order (by id) by every writer that may wait for them: no deadlock between two records
        SELECT d.id FROM webhook_deliveries d WHERE d.id IN (SELECT id FROM input) ORDER BY d.id FOR UPDATE
      )
      UPDATE webhook_deliveries d SET attempts = i.number, state = i.state::"DeliveryState", "nextAttemptAt" = i.next_attempt_at,
        "attemptingUntil" = NULL, "lastStatusCode" = i.status_code, "lastError" = i.error,
        "completedAt" = CASE WHEN i.state = 'pending' THEN NULL ELSE i.at END
      FROM input i WHERE d.id = i.id AND d.id IN (SELECT id FROM locked)`,
    [c.deliveryIds, c.numbers, c.statusCodes, c.errors, c.responseExcerpts, c.durationsMs, c.ats, c.states, c.nextAttemptAts, c.succeededWebhookIds],
  );
}

/** A pending delivery ends skipped (its webhook was disabled): the rows changed. */
export async function markDeliverySkipped(q: Queryable, deliveryId: string, reason: string, now: Date): Promise<number> {
  return executor(q).execute(
    `
    UPDATE webhook_deliveries SET state = 'skipped', "attemptingUntil" = NULL, "lastError" = $1, "completedAt" = $2, "nextAttemptAt" = NULL
    WHERE id = $3::uuid AND state = 'pending'`,
    [reason, now, deliveryId],
  );
}

/** Extends the holds on these pending deliveries still held; a row locked now (being recorded) is skipped, never waited for. */
export async function extendDeliveryHolds(q: Queryable, deliveryIds: string[], until: Date): Promise<number> {
  return executor(q).execute(
    `
      UPDATE webhook_deliveries SET "attemptingUntil" = $1
      WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($2::uuid[]) AND state = 'pending' AND "attemptingUntil" IS NOT NULL FOR UPDATE SKIP LOCKED)`,
    [until, deliveryIds],
  );
}

export const claimedDueDeliveryColumns = columns({
  ...claimedDeliveryColumns,
  nextAttemptAt: "timestamptz!",
  eventData: "jsonb?",
  eventCreatedAt: "timestamptz?",
});
export type ClaimedDueDeliveryRow = RowOf<typeof claimedDueDeliveryColumns>;

/**
 * Holds up to `limit` of the account's due deliveries until `holdUntil`,
 * oldest due first, in one statement with everything an attempt needs (the
 * webhook's, and the event's data and time).
 */
export async function holdDueDeliveries(q: Queryable, accountId: string, limit: number, holdUntil: Date, now: Date): Promise<ClaimedDueDeliveryRow[]> {
  return executor(q).rows<ClaimedDueDeliveryRow>(
    `
    WITH picked AS (
      SELECT id FROM webhook_deliveries
      WHERE "accountId" = $1::uuid AND state = 'pending' AND "nextAttemptAt" <= $2
        AND ("attemptingUntil" IS NULL OR "attemptingUntil" < $3)
      ORDER BY "nextAttemptAt", "createdAt"
      LIMIT $4
      FOR UPDATE SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d SET "attemptingUntil" = $5
      FROM picked p, webhooks w
      WHERE d.id = p.id AND w.id = d."webhookId"
      RETURNING ${CLAIMED_COLUMNS}, d."nextAttemptAt"
    )
    SELECT c.*, e.data AS "eventData", e."createdAt" AS "eventCreatedAt"
    FROM claimed c LEFT JOIN events e ON e.id = c."eventId"
    ORDER BY c."nextAttemptAt", c."createdAt"`,
    [accountId, now, now, limit, holdUntil],
  );
}

/** Ends the holds on these pending deliveries (not attempted after all); a row locked now is skipped. */
export async function dropDeliveryHolds(q: Queryable, deliveryIds: string[]): Promise<number> {
  return executor(q).execute(
    `
    UPDATE webhook_deliveries SET "attemptingUntil" = NULL
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND state = 'pending' FOR UPDATE SKIP LOCKED)`,
    [deliveryIds],
  );
}

/**
 * One delivery per enabled webhook of each event's account whose filters
 * match (its type, or "*" for any type but `optInTypes`), due `now`, in the
 * events' order; a (webhook, event) pair already there is left alone. The rows created.
 */
export async function insertDeliveriesForEvents(q: Queryable, eventIds: string[], optInTypes: readonly string[], now: Date): Promise<number> {
  return executor(q).execute(
    `
      INSERT INTO webhook_deliveries (id, "accountId", "webhookId", "eventId", "eventType", "nextAttemptAt", "createdAt")
      SELECT gen_random_uuid(), e."accountId", w.id, e.id, e.type, $1, $2
      FROM events e
      JOIN webhooks w ON w."accountId" = e."accountId" AND w."disabledAt" IS NULL AND (e.type = ANY(w."eventFilters") OR ('*' = ANY(w."eventFilters") AND e.type <> ALL($3::text[])))
      WHERE e.id = ANY($4::uuid[])
      ORDER BY e."createdAt", e.id, w."createdAt"
      ON CONFLICT ("webhookId", "eventId") DO NOTHING`,
    [now, now, optInTypes, eventIds],
  );
}

export const reopenedDeliveryColumns = columns({ attempts: "int4", notified: "bool" });
export type ReopenedDeliveryRow = RowOf<typeof reopenedDeliveryColumns>;

/**
 * The account's delivery of this webhook becomes pending again, due `now`,
 * with `extraAttempts` more allowed, and the deliverers are woken (NOTIFY at
 * commit): only while the webhook is enabled and no attempt is under way. No row when not.
 */
export async function reopenDelivery(q: Queryable, target: { deliveryId: string; webhookId: string; accountId: string }, extraAttempts: number, now: Date): Promise<ReopenedDeliveryRow[]> {
  return executor(q).rows<ReopenedDeliveryRow>(
    `
    UPDATE webhook_deliveries d SET state = 'pending', "maxAttempts" = d.attempts + $1, "nextAttemptAt" = $2, "completedAt" = NULL
    FROM webhooks w
    WHERE d.id = $3::uuid AND d."webhookId" = $4::uuid AND d."accountId" = $5::uuid
      AND w.id = d."webhookId" AND w."disabledAt" IS NULL
      AND (d.state <> 'pending' OR d."attemptingUntil" IS NULL OR d."attemptingUntil" < $6)
    RETURNING d.attempts, pg_notify('webhook_deliveries', '') IS NULL AS notified`,
    [extraAttempts, now, target.deliveryId, target.webhookId, target.accountId, now],
  );
}

/**
 * Deletes up to `batch` deliveries that ended before `before` (their attempts go with them), skipping locked rows: how many.
 * The batch's ids go to the DELETE as an array, found by primary key (see deleteRelayedEvents).
 */
export async function deleteFinishedDeliveries(q: Queryable, before: Date, batch: number): Promise<number> {
  return executor(q).execute(
    `
    DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
      SELECT id FROM webhook_deliveries WHERE "completedAt" < $1 AND state <> 'pending' ORDER BY "completedAt" LIMIT $2 FOR UPDATE SKIP LOCKED))`,
    [before, batch],
  );
}
