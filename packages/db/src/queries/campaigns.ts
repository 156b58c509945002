import type { CampaignStatus } from "../generated/client.js";
import { columns, type RowOf } from "./columns.js";
import { executor, fromDb, type PrismaQueryable, type Queryable } from "./executor.js";
import { isoTimeSql } from "./iso-time.js";

/*
 * Statements on campaigns. The row lock comes in four shapes, each kept as its
 * callers wrote it (the text, the lock strength and the columns it returns):
 * - lockCampaign: the API's workflow actions (one account's campaign, FOR UPDATE or FOR NO KEY UPDATE);
 * - lockCampaignWaitRange: the API's PATCH (FOR UPDATE, with the stored wait range);
 * - lockCampaignStatus: the dispatcher's chunks (FOR UPDATE, the status only);
 * - lockCampaignRow: the dispatcher's re-plan chunks (FOR UPDATE, whether it exists).
 * All of them run in the caller's transaction and end with it.
 */

export const lockedCampaignColumns = columns({ id: "uuid", accountId: "uuid", outreachId: "uuid?", name: "text", status: "text", pausedReason: "text?" });

/** status is the CampaignStatus enum cast to text. */
export type LockedCampaign = Omit<RowOf<typeof lockedCampaignColumns>, "status"> & { status: CampaignStatus };

/**
 * FOR UPDATE for state changes (dispatch, pause, resume); FOR NO KEY UPDATE for
 * enrollments, which must exclude those and each other but not the foreign-key
 * checks of rows written meanwhile by the workers (step sends, skips).
 */
export type CampaignLockMode = "update" | "no_key_update";

/** Locks one of the account's campaigns (`id` must be a uuid): undefined when it is not there or not the account's. */
export async function lockCampaign(q: Queryable, accountId: string, id: string, mode: CampaignLockMode = "update"): Promise<LockedCampaign | undefined> {
  const lock = mode === "update" ? "FOR UPDATE" : "FOR NO KEY UPDATE";
  const [campaign] = await executor(q).rows<LockedCampaign>(
    `
    SELECT id, "accountId", "outreachId", name, status::text AS status, "pausedReason" FROM campaigns
    WHERE id = $1::uuid AND "accountId" = $2::uuid ${lock}`,
    [id, accountId],
  );
  return campaign;
}

export const campaignWaitRangeColumns = columns({ id: "uuid", status: "text", minWaitSeconds: "int4", maxWaitSeconds: "int4" });
export type CampaignWaitRange = RowOf<typeof campaignWaitRangeColumns>;

/** Locks one of the account's campaigns FOR UPDATE with its stored wait range (`id` must be a uuid). */
export async function lockCampaignWaitRange(q: Queryable, accountId: string, id: string): Promise<CampaignWaitRange | undefined> {
  const [campaign] = await executor(q).rows<CampaignWaitRange>(
    `
      SELECT id, status::text AS status, "minWaitSeconds", "maxWaitSeconds" FROM campaigns
      WHERE id = $1::uuid AND "accountId" = $2::uuid FOR UPDATE`,
    [id, accountId],
  );
  return campaign;
}

export const campaignStatusColumns = columns({ status: "text" });

/** Locks the campaign FOR UPDATE: its status, undefined when it is gone. */
export async function lockCampaignStatus(q: Queryable, campaignId: string): Promise<string | undefined> {
  const [locked] = await executor(q).rows<RowOf<typeof campaignStatusColumns>>(`SELECT status::text AS status FROM campaigns WHERE id = $1::uuid FOR UPDATE`, [campaignId]);
  return locked?.status;
}

export const campaignIdColumns = columns({ id: "uuid" });

/** Locks the campaign FOR UPDATE: false when it is gone. */
export async function lockCampaignRow(q: Queryable, campaignId: string): Promise<boolean> {
  const locked = await executor(q).rows<RowOf<typeof campaignIdColumns>>(`SELECT id FROM campaigns WHERE id = $1::uuid FOR UPDATE`, [campaignId]);
  return locked.length > 0;
}

export const campaignToDispatchColumns = columns({
  id: "text",
  status: "text",
  verifyEmailMx: "bool",
  skipDisposable: "bool",
  skipRoleAccounts: "bool",
  matchRecipientProvider: "bool",
  steps: "int4",
  hasBlocklist: "bool",
});
export type CampaignToDispatch = RowOf<typeof campaignToDispatchColumns>;

/** What a dispatch job reads first (no lock): the campaign's status, address-check and provider settings, step count and whether its account has a blocklist. */
export async function campaignToDispatch(q: Queryable, accountId: string, campaignId: string): Promise<CampaignToDispatch | undefined> {
  const [campaign] = await executor(q).rows<CampaignToDispatch>(
    `SELECT id::text AS id, status::text AS status, "verifyEmailMx", "skipDisposable", "skipRoleAccounts", "matchRecipientProvider", (SELECT count(*)::int FROM sequence_steps s WHERE s."campaignId" = c.id) AS steps,
       EXISTS (SELECT 1 FROM blocklist_entries b WHERE b."accountId" = c."accountId") AS "hasBlocklist"
     FROM campaigns c WHERE id = $1::uuid AND "accountId" = $2::uuid`,
    [campaignId, accountId],
  );
  return campaign;
}

export const campaignSummaryColumns = columns({ id: "uuid", name: "text", status: "text", createdAt: "text" });

/** status is the CampaignStatus enum cast to text; createdAt is the ISO 8601 text of the time (isoTimeSql). */
export type CampaignSummaryRow = Omit<RowOf<typeof campaignSummaryColumns>, "status"> & { status: CampaignStatus };

const CREATED_AT_ISO = isoTimeSql(`c."createdAt"`);

/** Which campaigns a page holds (after the cursor, $3 and $4, when given) and their order, newest first: campaigns_accountId_createdAt_idx. */
function campaignPageWhere(after: boolean): string {
  return `WHERE c."accountId" = $1::uuid${after ? ` AND (c."createdAt", c.id) < ($3::timestamptz, $4::uuid)` : ""}
     ORDER BY c."createdAt" DESC, c.id DESC`;
}

function campaignPageRowsSql(after: boolean): string {
  return `SELECT c.id, c.name, c.status::text AS status, ${CREATED_AT_ISO} AS "createdAt" FROM campaigns c
     ${campaignPageWhere(after)} LIMIT $2`;
}

/**
 * Each campaign as the JSON GET /campaigns shows it, built by concatenation:
 * to_json escapes the name as JSON.stringify does; id, status and the time
 * need no escaping. (row_to_json and an aggregate of the page cost
 * PostgreSQL twice the CPU of the rows.)
 */
function campaignPageJsonSql(after: boolean): string {
  return `SELECT c.id, '{"id":"' || c.id || '","name":' || to_json(c.name)::text || ',"status":"' || c.status || '","created_at":"' || ${CREATED_AT_ISO} || '"}' AS json
     FROM campaigns c ${campaignPageWhere(after)} LIMIT $2`;
}

// built once: a prepared statement's text is compared with the one its name was parsed with on every call
const CAMPAIGN_PAGE = {
  rows: { first: campaignPageRowsSql(false), after: campaignPageRowsSql(true) },
  json: { first: campaignPageJsonSql(false), after: campaignPageJsonSql(true) },
};

function campaignPageParams(accountId: string, limit: number, cursor: { createdAt: Date; id: string } | null | undefined): unknown[] {
  return cursor ? [accountId, limit, cursor.createdAt, cursor.id] : [accountId, limit];
}

/**
 * A page of the account's campaigns, newest first (after the cursor when
 * given), `limit` rows: one prepared statement on
 * campaigns_accountId_createdAt_idx through the client's own pool (fromDb),
 * its time already as the text an answer shows.
 */
export async function listCampaignPage(db: PrismaQueryable, accountId: string, limit: number, cursor?: { createdAt: Date; id: string } | null): Promise<CampaignSummaryRow[]> {
  return fromDb(db).rows<CampaignSummaryRow>(cursor ? CAMPAIGN_PAGE.rows.after : CAMPAIGN_PAGE.rows.first, campaignPageParams(accountId, limit, cursor), {
    name: cursor ? "list_campaigns_after" : "list_campaigns",
  });
}

export const campaignJsonColumns = columns({ id: "uuid", json: "text" });

/**
 * The same page, each campaign as the JSON text GET /campaigns answers with
 * ({id, name, status, created_at}: byte for byte what JSON.stringify makes of
 * serializeCampaignSummary in apps/api): the hottest read of the API reads
 * one string per campaign instead of parsing a row to serialize it again.
 */
export async function listCampaignJsonPage(db: PrismaQueryable, accountId: string, limit: number, cursor?: { createdAt: Date; id: string } | null): Promise<Array<RowOf<typeof campaignJsonColumns>>> {
  return fromDb(db).rows<RowOf<typeof campaignJsonColumns>>(cursor ? CAMPAIGN_PAGE.json.after : CAMPAIGN_PAGE.json.first, campaignPageParams(accountId, limit, cursor), {
    name: cursor ? "list_campaigns_json_after" : "list_campaigns_json",
  });
}

export const resumeReplanColumns = columns({ resumeReplanBefore: "timestamptz?" });

/** The mark of a re-plan in progress (campaigns.resumeReplanBefore): null when none, undefined when the campaign is gone. */
export async function resumeReplanMark(q: Queryable, campaignId: string): Promise<Date | null | undefined> {
  const [row] = await executor(q).rows<RowOf<typeof resumeReplanColumns>>(`SELECT "resumeReplanBefore" FROM campaigns WHERE id = $1::uuid`, [campaignId]);
  return row?.resumeReplanBefore;
}

/** RETURNING "resumeReplanBefore" just set to now(). */
export const replanMarkColumns = columns({ before: "timestamptz!" });

/** Marks a re-plan of the held sends as wanted, from now (a newer mark makes a re-plan still running stop): the mark. */
export async function markResumeReplan(q: Queryable, campaignId: string): Promise<Date> {
  const [marked] = await executor(q).rows<RowOf<typeof replanMarkColumns>>(
    `
    UPDATE campaigns SET "resumeReplanBefore" = now(), "updatedAt" = now()
    WHERE id = $1::uuid RETURNING "resumeReplanBefore" AS before`,
    [campaignId],
  );
  return marked!.before;
}

/** Resumes the campaign (active, no paused reason) with a re-plan of its held sends marked as wanted from now: the mark. */
export async function resumeWithReplan(q: Queryable, campaignId: string): Promise<Date> {
  const [marked] = await executor(q).rows<RowOf<typeof replanMarkColumns>>(
    `
        UPDATE campaigns SET status = 'active', "pausedReason" = NULL, "resumeReplanBefore" = now(), "updatedAt" = now()
        WHERE id = $1::uuid RETURNING "resumeReplanBefore" AS before`,
    [campaignId],
  );
  return marked!.before;
}

/** The re-plan is done: the mark is cleared (the campaign's sends are released again). */
export async function clearResumeReplan(q: Queryable, campaignId: string): Promise<void> {
  await executor(q).execute(`UPDATE campaigns SET "resumeReplanBefore" = NULL, "updatedAt" = now() WHERE id = $1::uuid`, [campaignId]);
}

export const pendingResumeReplanColumns = columns({ id: "uuid", accountId: "uuid", before: "timestamptz!" });
export type PendingResumeReplan = RowOf<typeof pendingResumeReplanColumns>;

/** Campaigns with a re-plan in progress (at most 1,000): what the dispatcher's sweep adds jobs for. */
export async function campaignsWithResumeReplan(q: Queryable): Promise<PendingResumeReplan[]> {
  return executor(q).rows<PendingResumeReplan>(`
      SELECT id, "accountId", "resumeReplanBefore" AS before FROM campaigns WHERE "resumeReplanBefore" IS NOT NULL LIMIT 1000`);
}

export const campaignPlanColumns = columns({
  accountId: "text",
  minWaitSeconds: "int4",
  maxWaitSeconds: "int4",
  planVersion: "int4",
  schedule: "jsonb?",
  jitterScope: "text",
  dailyLimit: "int4?",
});
export type CampaignPlanRow = RowOf<typeof campaignPlanColumns>;

/** What the planner reads of a campaign: its account, wait range, plan version, schedule, jitter scope and campaign-wide daily limit. */
export async function campaignPlanSettings(q: Queryable, campaignId: string): Promise<CampaignPlanRow | undefined> {
  const [row] = await executor(q).rows<CampaignPlanRow>(
    `SELECT "accountId"::text AS "accountId", "minWaitSeconds", "maxWaitSeconds", "planVersion", schedule, "jitterScope", "dailyLimit" FROM campaigns WHERE id = $1::uuid`,
    [campaignId],
  );
  return row;
}

export const planVersionColumns = columns({ planVersion: "int4" });

/** Another plan went onto the campaign (a chunk planned): its new planVersion. */
export async function bumpPlanVersion(q: Queryable, campaignId: string): Promise<number> {
  const [bumped] = await executor(q).rows<RowOf<typeof planVersionColumns>>(`UPDATE campaigns SET "planVersion" = "planVersion" + 1 WHERE id = $1::uuid RETURNING "planVersion"`, [campaignId]);
  return bumped!.planVersion;
}

export const scheduleCampaignColumns = columns({ id: "uuid", name: "text", status: "text", pausedReason: "text?", resumeReplanBefore: "timestamptz?" });
export type ScheduleCampaignRow = RowOf<typeof scheduleCampaignColumns>;

/** These campaigns (those there): name, status, paused reason and re-plan mark, for the schedule view. */
export async function campaignsForSchedule(q: Queryable, campaignIds: string[]): Promise<ScheduleCampaignRow[]> {
  return executor(q).rows<ScheduleCampaignRow>(
    `
        SELECT id, name, status::text AS status, "pausedReason", "resumeReplanBefore" FROM campaigns WHERE id = ANY($1::uuid[])`,
    [campaignIds],
  );
}
