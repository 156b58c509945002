import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import pg from "pg";
import { applyMigrations, createDbClient, ensureDatabase, inRawTransaction, MIGRATIONS_DIR, poolOf, type Db } from "../src/index.js";
import * as queries from "../src/queries/index.js";
import { executor, fromDb, fromPg, fromPrisma, isColumnMap, type ColumnMap, type Executor } from "../src/queries/index.js";

// Every statement of the query modules runs against the migrated schema (in a
// transaction rolled back), and what it returns (column names, their order,
// their types, and NOT NULL where a column comes straight from a table) is
// compared with the columns its row type is derived from. A query function
// added without a case here fails the completeness test.

// This package sits below @outreach/testing, so it names its scratch database itself
// (with the prefix the harness sweeps up after killed runs).
const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const name = `outreach_test_${Date.now().toString(36)}_qry${randomBytes(3).toString("hex")}`;
const url = (() => {
  const u = new URL(TEST_ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
})();

let client: pg.Client;
const typeNames = new Map<number, string>();

before(async () => {
  await ensureDatabase(url);
  await applyMigrations(url, MIGRATIONS_DIR);
  client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const row of (await client.query<{ oid: number; typname: string }>(`SELECT oid::int AS oid, typname FROM pg_type`)).rows) typeNames.set(row.oid, row.typname);
});

after(async () => {
  await client?.end();
  const admin = new pg.Client({ connectionString: TEST_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

interface Ran {
  text: string;
  fields: pg.FieldDef[];
}

/** An executor on the test connection that keeps what each statement returned. */
function recording(): { ex: Executor; ran: Ran[] } {
  const ran: Ran[] = [];
  const run = async (config: pg.QueryConfig) => {
    const result = await client.query(config);
    ran.push({ text: config.text, fields: result.fields });
    return result;
  };
  const ex: Executor = {
    rows: async <T>(text: string, params: readonly unknown[] = []) => (await run({ text, values: [...params] })).rows as T[],
    values: async <T>(text: string, params: readonly unknown[] = []) => (await run({ text, values: [...params], rowMode: "array" } as pg.QueryConfig)).rows.map((row: unknown[]) => row[0]) as T[],
    execute: async (text: string, params: readonly unknown[] = []) => (await run({ text, values: [...params] })).rowCount ?? 0,
  };
  return { ex, ran };
}

/** The executor as a Prisma client without a pool of its own, for a function that takes one (fromDb then goes through these). */
function asPrisma(ex: Executor): queries.PrismaQueryable {
  return {
    $queryRawUnsafe: ((text: string, ...params: unknown[]) => ex.rows(text, params)) as never,
    $executeRawUnsafe: ((text: string, ...params: unknown[]) => ex.execute(text, params)) as never,
  };
}

async function notNull(tableId: number, columnId: number): Promise<boolean> {
  const { rows } = await client.query<{ attnotnull: boolean }>(`SELECT attnotnull FROM pg_attribute WHERE attrelid = $1 AND attnum = $2`, [tableId, columnId]);
  return rows[0]?.attnotnull === true;
}

/** What the statement returned, against the declared columns: the differences, described. */
async function compare(declared: ColumnMap, fields: pg.FieldDef[]): Promise<string[]> {
  const problems: string[] = [];
  const names = Object.keys(declared);
  assert.deepEqual(
    fields.map((f) => f.name),
    names,
    "the columns returned, in order",
  );
  for (const field of fields) {
    const spec = declared[field.name]!;
    const type = spec.replace(/[?!]$/, "");
    const actual = typeNames.get(field.dataTypeID) ?? `oid ${field.dataTypeID}`;
    if (actual !== type) problems.push(`${field.name}: returns ${actual}, declared ${spec}`);
    if (!/[?!]$/.test(spec) && field.tableID !== 0 && !(await notNull(field.tableID, field.columnID))) {
      problems.push(`${field.name}: from a column that can be NULL, declared ${spec} (say "${type}?", or "${type}!" when the statement rules NULL out)`);
    }
  }
  return problems;
}

test("one statement gives the same rows, values and counts through a Prisma client, a transaction, a pg connection and the client's own pool", async () => {
  const db: Db = createDbClient(url, { poolMax: 2 });
  try {
    const text = `SELECT g AS n, 'row ' || g AS label, $2::uuid AS id FROM generate_series(1, $1::int) AS g ORDER BY g`;
    const params = [3, "00000000-0000-0000-0000-000000000001"];
    const expected = [1, 2, 3].map((n) => ({ n, label: `row ${n}`, id: params[1] }));
    const pool = poolOf(db)!;
    const ways: Array<[string, (work: (ex: Executor) => Promise<void>) => Promise<void>]> = [
      ["fromPrisma(client)", (work) => work(fromPrisma(db))],
      ["fromPrisma(transaction)", (work) => db.$transaction((tx) => work(fromPrisma(tx)))],
      ["fromPg(connection in inRawTransaction)", (work) => inRawTransaction(pool, (c) => work(fromPg(c)))],
      ["fromPg(pool)", (work) => work(fromPg(pool))],
      ["fromDb(client)", (work) => work(fromDb(db))],
      ["executor(client)", (work) => work(executor(db))],
    ];
    for (const [way, run] of ways) {
      await run(async (ex) => {
        assert.deepEqual(await ex.rows(text, params), expected, way);
        assert.deepEqual(await ex.rows(text, params, { name: "query_row_types_probe" }), expected, `${way}, named`);
        assert.deepEqual(await ex.values(text, params), [1, 2, 3], `${way}: values`);
        assert.equal(await ex.execute(`UPDATE _prisma_migrations SET logs = logs WHERE migration_name = ANY($1::text[])`, [["none", "either"]]), 0, `${way}: execute`);
        assert.ok((await ex.execute(`UPDATE _prisma_migrations SET logs = logs`)) > 0, `${way}: execute without parameters`);
      });
    }
  } finally {
    await db.$disconnect();
  }
});

type Run = (ex: Executor) => Promise<unknown>;
/** runs: calls covering each shape of the function's statement, each checked against `columns` or against its own. */
type Case = { columns: ColumnMap | null; runs: Array<Run | [Run, ColumnMap]> };

const id = () => randomUUID();
const now = new Date();

/** One case per query function: the columns its rows are typed with (null: run for its effect), and calls covering each shape of its statement. */
const cases: Record<string, Case> = {
  // the API's statements: blocklist-entries.ts
  insertApiBlocklistEntries: {
    columns: null,
    runs: [async (ex) => (await withoutForeignKeys(), queries.insertApiBlocklistEntries(ex, id(), ["email", "domain"], ["a@b.test", "b.test"], null))],
  },
  deleteBlocklistEntryById: { columns: queries.deletedBlocklistEntryColumns, runs: [(ex) => queries.deleteBlocklistEntryById(ex, id(), id())] },
  deleteBlocklistEntryByValue: { columns: queries.deletedBlocklistEntryColumns, runs: [(ex) => queries.deleteBlocklistEntryByValue(ex, id(), "b.test")] },
  // outreaches.ts
  lockOutreachForUpdate: { columns: queries.outreachIdColumns, runs: [(ex) => queries.lockOutreachForUpdate(ex, id(), id())] },
  keyShareLockOutreach: { columns: queries.outreachIdColumns, runs: [(ex) => queries.keyShareLockOutreach(ex, id(), id())] },
  lockOutreachEnrollments: { columns: null, runs: [(ex) => queries.lockOutreachEnrollments(ex, id())] },
  outreachUniqueContacts: { columns: queries.outreachUniqueContactsColumns, runs: [(ex) => queries.outreachUniqueContacts(ex, id(), id())] },
  // webhooks.ts (secret rotation)
  replaceWebhookSecret: { columns: queries.rotatedWebhookColumns, runs: [(ex) => queries.replaceWebhookSecret(ex, id(), id(), "sealed", now, now)] },
  // request-logs.ts (usage)
  insertRequestLogs: {
    columns: null,
    runs: [
      async (ex) => (
        await withoutForeignKeys(),
        queries.insertRequestLogs(ex, {
          accountIds: [id()],
          apiKeyIds: [id()],
          clientKinds: ["direct"],
          methods: ["GET"],
          routes: ["/v1/campaigns"],
          statuses: [200],
          durationsMs: [5],
          createdAts: [now.toISOString()],
        })
      ),
    ],
  },
  apiUsageByClientKind: {
    columns: queries.apiUsageByKindColumns,
    runs: [
      async (ex) => {
        const accountId = id();
        await withoutForeignKeys();
        // seeded outside the recording (an insert returns no columns)
        await queries.insertRequestLogs(client, {
          accountIds: [accountId],
          apiKeyIds: [id()],
          clientKinds: ["sdk"],
          methods: ["GET"],
          routes: ["/v1/usage"],
          statuses: [500],
          durationsMs: [7],
          createdAts: [now.toISOString()],
        });
        const [row] = await queries.apiUsageByClientKind(ex, accountId, new Date(now.getTime() - 1000));
        assert.deepEqual(row, { client_kind: "sdk", requests: 1, errors: 1, avg_ms: 7 });
      },
    ],
  },
  apiUsageByDay: { columns: queries.apiUsageByDayColumns, runs: [(ex) => queries.apiUsageByDay(ex, id(), now)] },
  // api-keys.ts
  touchApiKeyLastUsed: { columns: null, runs: [(ex) => queries.touchApiKeyLastUsed(ex, id(), now)] },
  recordApiKeysLastUsed: { columns: null, runs: [(ex) => queries.recordApiKeysLastUsed(ex, [id()], [now.toISOString()])] },
  // idempotency-records.ts (claims)
  insertIdempotencyClaim: {
    columns: null,
    runs: [async (ex) => (await withoutForeignKeys(), queries.insertIdempotencyClaim(ex, { accountId: id(), key: "k", method: "POST", path: "/v1/x", requestHash: "h", expiresAt: now }))],
  },
  deleteAbandonedIdempotencyClaim: { columns: null, runs: [(ex) => queries.deleteAbandonedIdempotencyClaim(ex, id(), "k", now, 30)] },
  refreshIdempotencyHeartbeat: { columns: null, runs: [(ex) => queries.refreshIdempotencyHeartbeat(ex, id(), "k")] },
  // contact-imports.ts
  mergeStagedContactRows: {
    columns: queries.mergedChunkColumns,
    runs: [
      async (ex) => (
        await withoutForeignKeys(),
        queries.mergeStagedContactRows(ex, { accountId: id(), uploadId: id(), after: "", importId: id(), chunkSize: 10, limits: { maxKeys: 50, maxBytes: 8192 } })
      ),
    ],
  },
  findContactImportId: { columns: queries.contactImportIdColumns, runs: [(ex) => queries.findContactImportId(ex, id(), id())] },
  importEnrollmentCounts: { columns: queries.importEnrollmentCountColumns, runs: [(ex) => queries.importEnrollmentCounts(ex, id(), id(), id())] },
  importContactsInSiblingCampaigns: {
    columns: queries.importSiblingColumns,
    runs: [(ex) => queries.importContactsInSiblingCampaigns(ex, { accountId: id(), importId: id(), campaignId: id(), outreachId: id() })],
  },
  enrollImportContacts: {
    columns: null,
    runs: [
      (ex) => queries.enrollImportContacts(ex, { accountId: id(), importId: id(), campaignId: id(), batchNumber: 1, priority: 0, uniqueOutreachId: null }),
      (ex) => queries.enrollImportContacts(ex, { accountId: id(), importId: id(), campaignId: id(), batchNumber: 1, priority: 0, uniqueOutreachId: id() }),
    ],
  },
  // contact-import-staged-rows.ts
  insertStagedContactRows: {
    columns: null,
    runs: [
      (ex) => queries.insertStagedContactRows(ex, id(), { emails: ["a@b.test"], ords: [0], firstNames: [null], lastNames: [null], companies: [null], timezones: [null], customFields: ['{"k":"v"}'] }),
    ],
  },
  deleteStagedRowsOf: { columns: null, runs: [(ex) => queries.deleteStagedRowsOf(ex, [id()])] },
  deleteStagedRowsBefore: { columns: null, runs: [(ex) => queries.deleteStagedRowsBefore(ex, id())] },
  // enrollment-skips.ts (cross-campaign duplicates)
  firstSiblingEnrollmentReason: {
    columns: queries.siblingEnrollmentReasonColumns,
    runs: [(ex) => queries.firstSiblingEnrollmentReason(ex, { accountId: id(), campaignId: id(), outreachId: id(), contactId: id() })],
  },
  crossCampaignDuplicateSkipContacts: { columns: queries.skippedContactColumns, runs: [(ex) => queries.crossCampaignDuplicateSkipContacts(ex, id())] },
  insertCrossCampaignDuplicateSkips: {
    columns: null,
    runs: [async (ex) => (await withoutForeignKeys(), queries.insertCrossCampaignDuplicateSkips(ex, id(), id(), { contactIds: [id()], siblingIds: [id()], siblingNames: ["c"] }))],
  },
  // transaction-settings.ts (contact imports)
  disableBitmapScans: { columns: null, runs: [(ex) => queries.disableBitmapScans(ex)] },
  setLockTimeout: { columns: null, runs: [(ex) => queries.setLockTimeout(ex, 15_000)] },
  // campaign-stats.ts
  enrollmentBatchStats: { columns: queries.batchStatsColumns, runs: [(ex) => queries.enrollmentBatchStats(ex, id())] },
  stepSendCredentialStats: { columns: queries.sendStatsColumns, runs: [(ex) => queries.stepSendCredentialStats(ex, id(), now, new Date(now.getTime() + 86_400_000))] },
  recentBouncedEnrollments: { columns: queries.recentBounceColumns, runs: [(ex) => queries.recentBouncedEnrollments(ex, id(), 20)] },
  recentFailedSends: { columns: queries.recentFailureColumns, runs: [(ex) => queries.recentFailedSends(ex, id(), 20)] },
  rollUpCampaignCounts: { columns: queries.campaignCountRollUpColumns, runs: [(ex) => queries.rollUpCampaignCounts(ex, 100)] },
  recountCampaignCounts: { columns: null, runs: [(ex) => queries.recountCampaignCounts(ex)] },
  enrollmentSkipCounts: { columns: queries.skipCountColumns, runs: [(ex) => queries.enrollmentSkipCounts(ex, id())] },
  variantSendStats: { columns: queries.variantStatsColumns, runs: [(ex) => queries.variantSendStats(ex, id())] },
  // campaign-analytics.ts
  planAnalyticsReads: { columns: null, runs: [(ex) => queries.planAnalyticsReads(ex)] },
  campaignSendCounts: {
    columns: queries.analyticsSendColumns,
    runs: [
      (ex) => queries.campaignSendCounts(ex, { campaignId: id(), from: null, to: null, zone: "UTC", byDay: false }),
      (ex) => queries.campaignSendCounts(ex, { campaignId: id(), from: now, to: new Date(now.getTime() + 86_400_000), zone: "Pacific/Auckland", byDay: false }),
    ],
  },
  campaignDailySendCounts: {
    columns: queries.analyticsSendColumns,
    runs: [
      (ex) => queries.campaignDailySendCounts(ex, { campaignId: id(), from: null, to: null, zone: "UTC", byDay: true }),
      (ex) => queries.campaignDailySendCounts(ex, { campaignId: id(), from: now, to: new Date(now.getTime() + 86_400_000), zone: "Pacific/Auckland", byDay: true }),
    ],
  },
  campaignEventCounts: {
    columns: queries.analyticsEventColumns,
    runs: [
      (ex) => queries.campaignEventCounts(ex, { campaignId: id(), from: null, to: null, zone: "UTC", byDay: false }),
      (ex) => queries.campaignEventCounts(ex, { campaignId: id(), from: now, to: new Date(now.getTime() + 86_400_000), zone: "Pacific/Auckland", byDay: true }),
    ],
  },
  // inbound-messages.ts (the API's replies)
  findInboundReply: { columns: queries.inboundReplyDetailColumns, runs: [(ex) => queries.findInboundReply(ex, id(), id(), ["reply", "auto_reply"])] },
  listInboxReplyPage: {
    columns: queries.inboundReplyColumns,
    runs: [
      (ex) => queries.listInboxReplyPage(ex, { accountId: id(), kinds: ["reply"], campaignId: null, cursor: null, textChars: 400, limit: 11 }),
      (ex) => queries.listInboxReplyPage(ex, { accountId: id(), kinds: ["reply"], campaignId: id(), cursor: null, textChars: 400, limit: 11 }),
      (ex) => queries.listInboxReplyPage(ex, { accountId: id(), kinds: ["reply"], campaignId: null, cursor: { createdAt: now, id: id() }, textChars: 400, limit: 11 }),
      (ex) => queries.listInboxReplyPage(ex, { accountId: id(), kinds: ["reply", "auto_reply"], campaignId: id(), cursor: { createdAt: now, id: id() }, textChars: 400, limit: 11 }),
      (ex) => queries.listInboxReplyPage(ex, { accountId: id(), kinds: ["reply"], campaignId: null, category: "interested", cursor: null, textChars: 400, limit: 11 }),
    ],
  },

  // campaigns.ts
  campaignPlanSettings: { columns: queries.campaignPlanColumns, runs: [(ex) => queries.campaignPlanSettings(ex, id())] },
  bumpPlanVersion: { columns: queries.planVersionColumns, runs: [(ex) => queries.bumpPlanVersion(ex, id()).catch(noRow)] },
  lockCampaign: { columns: queries.lockedCampaignColumns, runs: [(ex) => queries.lockCampaign(ex, id(), id(), "update"), (ex) => queries.lockCampaign(ex, id(), id(), "no_key_update")] },
  lockCampaignWaitRange: { columns: queries.campaignWaitRangeColumns, runs: [(ex) => queries.lockCampaignWaitRange(ex, id(), id())] },
  lockCampaignStatus: { columns: queries.campaignStatusColumns, runs: [(ex) => queries.lockCampaignStatus(ex, id())] },
  lockCampaignRow: { columns: queries.campaignIdColumns, runs: [(ex) => queries.lockCampaignRow(ex, id())] },
  campaignToDispatch: { columns: queries.campaignToDispatchColumns, runs: [(ex) => queries.campaignToDispatch(ex, id(), id())] },
  listCampaignPage: {
    columns: queries.campaignSummaryColumns,
    runs: [(ex) => queries.listCampaignPage(asPrisma(ex), id(), 10), (ex) => queries.listCampaignPage(asPrisma(ex), id(), 10, { createdAt: now, id: id() })],
  },
  listCampaignJsonPage: {
    columns: queries.campaignJsonColumns,
    runs: [(ex) => queries.listCampaignJsonPage(asPrisma(ex), id(), 10), (ex) => queries.listCampaignJsonPage(asPrisma(ex), id(), 10, { createdAt: now, id: id() })],
  },
  resumeReplanMark: { columns: queries.resumeReplanColumns, runs: [(ex) => queries.resumeReplanMark(ex, id())] },
  markResumeReplan: { columns: queries.replanMarkColumns, runs: [(ex) => queries.markResumeReplan(ex, id()).catch(noRow)] },
  resumeWithReplan: { columns: queries.replanMarkColumns, runs: [(ex) => queries.resumeWithReplan(ex, id()).catch(noRow)] },
  clearResumeReplan: { columns: null, runs: [(ex) => queries.clearResumeReplan(ex, id())] },
  campaignsWithResumeReplan: { columns: queries.pendingResumeReplanColumns, runs: [(ex) => queries.campaignsWithResumeReplan(ex)] },

  // enrollments.ts
  contactTimezonesOf: { columns: queries.contactTimezoneColumns, runs: [(ex) => queries.contactTimezonesOf(ex, [id()])] },
  markEnrollmentsDispatched: { columns: null, runs: [(ex) => queries.markEnrollmentsDispatched(ex, now.toISOString(), [id()], [id()])] },
  nextDispatchPage: {
    columns: queries.dispatchPageColumns,
    runs: [
      (ex) => queries.nextDispatchPage(ex, { accountId: id(), campaignId: id(), batchNumber: 1, size: 10, checkBlocklist: false }),
      (ex) => queries.nextDispatchPage(ex, { accountId: id(), campaignId: id(), batchNumber: 1, size: 10, checkBlocklist: true }),
    ],
  },
  lockNextDispatchPage: { columns: queries.enrollmentIdTextColumns, runs: [(ex) => queries.lockNextDispatchPage(ex, id(), 1, 10)] },
  lockPendingEnrollments: { columns: queries.enrollmentIdTextColumns, runs: [(ex) => queries.lockPendingEnrollments(ex, [id()])] },
  lockPendingEnrollmentContacts: { columns: queries.pendingEnrollmentContactColumns, runs: [(ex) => queries.lockPendingEnrollmentContacts(ex, [id()])] },
  lockPendingEnrollmentsInOrder: { columns: queries.enrollmentIdColumns, runs: [(ex) => queries.lockPendingEnrollmentsInOrder(ex, [id()])] },

  // smtp-credentials.ts
  enabledCampaignCredentials: { columns: queries.plannedCredentialColumns, runs: [(ex) => queries.enabledCampaignCredentials(ex, id())] },
  countEnabledCredentials: { columns: queries.enabledCountColumns, runs: [(ex) => queries.countEnabledCredentials(ex, id())] },
  mailboxesSharedWithOtherCampaigns: { columns: queries.mailboxesSharedColumns, runs: [(ex) => queries.mailboxesSharedWithOtherCampaigns(ex, id(), id(), ["smtp.example.test user"])] },
  lockMailbox: { columns: null, runs: [(ex) => queries.lockMailbox(ex, id(), "smtp.example.test user")] },
  heldSendsMoveState: { columns: queries.heldSendsMoveColumns, runs: [(ex) => queries.heldSendsMoveState(ex, id())] },
  clearHeldSendsMove: { columns: null, runs: [(ex) => queries.clearHeldSendsMove(ex, id())] },
  inboxesWithHeldSendsMove: { columns: queries.requestedHeldSendsMoveColumns, runs: [(ex) => queries.inboxesWithHeldSendsMove(ex)] },

  // step-sends.ts
  countCredentialRecentHealth: { columns: queries.credentialRecentHealthColumns, runs: [(ex) => queries.countCredentialRecentHealth(ex, id(), now)] },
  markSendComplained: { columns: queries.complainedSendColumns, runs: [(ex) => queries.markSendComplained(ex, id(), now)] },
  campaignDayBookingsFrom: {
    columns: queries.campaignDayBookingColumns,
    runs: [(ex) => queries.campaignDayBookingsFrom(ex, id(), "2026-01-01"), (ex) => queries.campaignDayBookingsFrom(ex, id(), "2026-01-01", id())],
  },
  mailboxBookingsFrom: { columns: queries.mailboxBookingColumns, runs: [(ex) => queries.mailboxBookingsFrom(ex, id(), ["smtp.example.test user"], "2026-01-01")] },
  lastStep1DueAts: { columns: queries.lastStep1Columns, runs: [(ex) => queries.lastStep1DueAts(ex, [id()], id(), false), (ex) => queries.lastStep1DueAts(ex, [id()], id(), true)] },
  insertScheduledSends: {
    columns: null,
    runs: [(ex) => queries.insertScheduledSends(ex, id(), id(), { enrollmentIds: [], positions: [], credentialIds: [], dueAts: [], limitDays: [] })],
  },
  lockHeldStep1Sends: {
    columns: queries.heldStep1Columns,
    runs: [(ex) => queries.lockHeldStep1Sends(ex, id(), {}), (ex) => queries.lockHeldStep1Sends(ex, id(), { credentialId: id(), createdBefore: now, after: { dueAt: now, id: id() }, limit: 10 })],
  },
  heldStep1Recipients: {
    columns: queries.heldStep1RecipientColumns,
    runs: [(ex) => queries.heldStep1Recipients(ex, id(), {}), (ex) => queries.heldStep1Recipients(ex, id(), { credentialId: id(), createdBefore: now, after: { dueAt: now, id: id() }, limit: 10 })],
  },
  deleteScheduledSendsOf: { columns: null, runs: [(ex) => queries.deleteScheduledSendsOf(ex, [id()])] },
  countHeldSendsAndSteps: { columns: queries.heldSendsAndStepsColumns, runs: [(ex) => queries.countHeldSendsAndSteps(ex, id())] },
  countHeldStep1Sends: { columns: queries.countColumns, runs: [(ex) => queries.countHeldStep1Sends(ex, id()), (ex) => queries.countHeldStep1Sends(ex, id(), now)] },
  forecastSendDays: {
    columns: queries.forecastDayColumns,
    runs: [(ex) => queries.forecastSendDays(ex, { campaignId: id(), zone: "Europe/Paris", start: now, end: new Date(now.getTime() + 86_400_000), firstDay: "2026-01-01", lastDay: "2026-01-03" })],
  },
  countMailboxDayUsage: { columns: queries.mailboxUsageColumns, runs: [(ex) => queries.countMailboxDayUsage(ex, id(), "smtp.example.test user", "2026-01-01")] },
  findSendByMessageId: {
    columns: queries.reportedSendColumns,
    runs: [(ex) => queries.findSendByMessageId(ex, ["<a@b>", "a@b"], true), (ex) => queries.findSendByMessageId(ex, ["<a@b>", "a@b"], false)],
  },
  findLastSendTo: {
    columns: queries.reportedSendColumns,
    runs: [(ex) => queries.findLastSendTo(ex, "a@b.test", now, true), (ex) => queries.findLastSendTo(ex, "a@b.test", null, false)],
  },

  // sequence-steps.ts
  stepDelays: { columns: queries.stepDelayColumns, runs: [(ex) => queries.stepDelays(ex, id())] },

  // transaction-settings.ts
  preferIndexScans: { columns: null, runs: [(ex) => queries.preferIndexScans(ex)] },

  // events.ts
  lockEventsToRelay: { columns: queries.eventIdColumns, runs: [(ex) => queries.lockEventsToRelay(ex, 10)] },
  markEventsRelayed: { columns: null, runs: [(ex) => queries.markEventsRelayed(ex, [id()], now)] },
  eventPayload: { columns: queries.eventPayloadColumns, runs: [(ex) => queries.eventPayload(ex, id())] },
  deleteRelayedEvents: { columns: null, runs: [(ex) => queries.deleteRelayedEvents(ex, now, 10)] },

  // webhooks.ts
  countWebhookFailure: { columns: queries.webhookFailureColumns, runs: [(ex) => queries.countWebhookFailure(ex, id(), now, 5)] },

  // webhook-deliveries.ts
  holdDeliveryForAttempt: { columns: queries.claimedDeliveryColumns, runs: [(ex) => queries.holdDeliveryForAttempt(ex, id(), 1, now, now)] },
  isDeliveryAttemptBusy: { columns: queries.deliveryBusyColumns, runs: [(ex) => queries.isDeliveryAttemptBusy(ex, id(), 1, now)] },
  recordAttempts: {
    columns: null,
    runs: [
      (ex) =>
        queries.recordAttempts(ex, {
          deliveryIds: [id()],
          numbers: [1],
          statusCodes: [null],
          errors: ["refused"],
          responseExcerpts: [null],
          durationsMs: [5],
          ats: [now.toISOString()],
          states: ["pending"],
          nextAttemptAts: [now.toISOString()],
          succeededWebhookIds: [id()],
        }),
    ],
  },
  markDeliverySkipped: { columns: null, runs: [(ex) => queries.markDeliverySkipped(ex, id(), "disabled", now)] },
  extendDeliveryHolds: { columns: null, runs: [(ex) => queries.extendDeliveryHolds(ex, [id()], now)] },
  holdDueDeliveries: { columns: queries.claimedDueDeliveryColumns, runs: [(ex) => queries.holdDueDeliveries(ex, id(), 10, now, now)] },
  dropDeliveryHolds: { columns: null, runs: [(ex) => queries.dropDeliveryHolds(ex, [id()])] },
  insertDeliveriesForEvents: { columns: null, runs: [(ex) => queries.insertDeliveriesForEvents(ex, [id()], ["enrollment.clicked"], now)] },
  reopenDelivery: { columns: queries.reopenedDeliveryColumns, runs: [(ex) => queries.reopenDelivery(ex, { deliveryId: id(), webhookId: id(), accountId: id() }, 5, now)] },
  deleteFinishedDeliveries: { columns: null, runs: [(ex) => queries.deleteFinishedDeliveries(ex, now, 10)] },

  // webhook-account-leases.ts
  leaseAccountsWithDueDeliveries: {
    columns: queries.leasedAccountColumns,
    runs: [
      (ex) => queries.leaseAccountsWithDueDeliveries(ex, { holder: "h", until: now, limit: 5, exclude: [], from: id(), before: null }, now),
      (ex) => queries.leaseAccountsWithDueDeliveries(ex, { holder: "h", until: now, limit: 5, exclude: [id()], from: id(), before: id() }, now),
    ],
  },
  extendAccountLeases: { columns: queries.leasedAccountColumns, runs: [(ex) => queries.extendAccountLeases(ex, "h", [id()], now)] },
  deleteAccountLeases: { columns: null, runs: [(ex) => queries.deleteAccountLeases(ex, "h", [id()])] },

  // bulk-campaigns.ts
  insertBulkAccount: { columns: queries.bulkIdColumns, runs: [async (ex) => (await scalePlan(), queries.insertBulkAccount(ex, `${id()}@bulk.example`))] },
  insertBulkCampaign: {
    columns: queries.bulkIdColumns,
    runs: [async (ex) => queries.insertBulkCampaign(ex, { accountId: await bulkAccount(), name: "bulk", status: "active", minWaitSeconds: 0, maxWaitSeconds: 0 })],
  },
  insertBulkSteps: { columns: null, runs: [(ex) => queries.insertBulkSteps(ex, id(), 0)] },
  insertBulkCredentials: {
    columns: queries.bulkIdColumns,
    runs: [(ex) => queries.insertBulkCredentials(ex, { accountId: id(), campaignId: id(), label: "bulk", smtpHost: "127.0.0.1", smtpPort: 9, smtpPasswordEnc: "x", dailyLimit: 10, count: 0 })],
  },
  insertBulkContacts: { columns: null, runs: [(ex) => queries.insertBulkContacts(ex, id(), "bulk", 0)] },
  enrollBulkContacts: { columns: null, runs: [(ex) => queries.enrollBulkContacts(ex, id(), id(), "bulk-%@example%")] },
  analyzeBulkCampaignTables: { columns: null, runs: [(ex) => queries.analyzeBulkCampaignTables(ex)] },
  analyzeStepSends: { columns: null, runs: [(ex) => queries.analyzeStepSends(ex)] },
  dispatchPendingBulkEnrollments: { columns: null, runs: [(ex) => queries.dispatchPendingBulkEnrollments(ex, id(), id())] },
  insertHeldBulkSends: { columns: null, runs: [(ex) => queries.insertHeldBulkSends(ex, id(), id(), now.toISOString())] },
  setSealedCredentialPasswords: { columns: null, runs: [(ex) => queries.setSealedCredentialPasswords(ex, [id()], ["sealed"], [null])] },

  // accounts.ts
  lockAccount: { columns: null, runs: [(ex) => queries.lockAccount(ex, id()), (ex) => queries.lockAccount(ex, id(), "no_key_update")] },
  lockAccountQuotaSettings: { columns: queries.accountQuotaSettingsColumns, runs: [(ex) => queries.lockAccountQuotaSettings(ex, id())] },
  accountsForSchedule: { columns: queries.scheduleAccountColumns, runs: [(ex) => queries.accountsForSchedule(ex, [id()])] },

  // provider-events.ts
  insertProviderEvent: { columns: null, runs: [(ex) => queries.insertProviderEvent(ex, `evt_${id()}`, "invoice.paid", now)] },

  // request-logs.ts
  deleteOldRequestLogs: { columns: null, runs: [(ex) => queries.deleteOldRequestLogs(ex, now, 10)] },

  // idempotency-records.ts
  deleteExpiredIdempotencyRecords: { columns: null, runs: [(ex) => queries.deleteExpiredIdempotencyRecords(ex, now, 10)] },

  // inbound-messages.ts
  insertInboundMessage: {
    columns: queries.insertedInboundMessageColumns,
    runs: [
      async (ex) => {
        await withoutForeignKeys();
        return queries.insertInboundMessage(ex, { credentialId: id(), accountId: id(), uidValidity: 1n, uid: 2n }, { messageId: "a@b", inReplyTo: null, fromEmail: "a@b.test" }, now);
      },
    ],
  },
  classifyInboundMessage: {
    columns: null,
    runs: [
      (ex) =>
        queries.classifyInboundMessage(ex, id(), { kind: "reply", enrollmentId: id(), fromName: "A", subject: "Re", sentAt: now, bodyText: "hi", references: ["a@b"], category: "interested" }, now),
      (ex) => queries.classifyInboundMessage(ex, id(), { kind: "bounce", enrollmentId: null, fromName: null, subject: null, sentAt: null, bodyText: null, references: [], category: null }, now),
    ],
  },
  lockReplyForCategory: { columns: queries.replyForCategoryColumns, runs: [(ex) => queries.lockReplyForCategory(ex, id())] },
  setReplyCategory: { columns: null, runs: [(ex) => queries.setReplyCategory(ex, id(), "wrong_person", "manual", now)] },
  replyCategoryCounts: { columns: queries.replyCategoryCountColumns, runs: [(ex) => queries.replyCategoryCounts(ex, id())] },
  latestReplyCategories: { columns: queries.latestReplyCategoryColumns, runs: [(ex) => queries.latestReplyCategories(ex, id(), [id(), id()])] },
  insertSkippedInboundMessage: {
    columns: null,
    runs: [
      async (ex) => {
        await withoutForeignKeys();
        return queries.insertSkippedInboundMessage(ex, { credentialId: id(), accountId: null, uidValidity: 1n, uid: 2n }, "too big", now);
      },
    ],
  },

  // contacts.ts
  findContactIdByEmail: { columns: queries.contactIdColumns, runs: [(ex) => queries.findContactIdByEmail(ex, id(), "a@b.test")] },

  // sealed-columns.ts
  sealedValuesPage: {
    columns: null,
    runs: queries.SEALED_COLUMNS.flatMap((sealed): Array<[Run, ColumnMap]> => {
      const map = sealed.key.length === 1 ? queries.sealedValueByIdColumns : queries.sealedValueByPairColumns;
      const after = sealed.key.map(([, type]) => (type === "uuid" ? id() : "k"));
      return [
        [(ex) => queries.sealedValuesPage(ex, sealed, null, 10), map],
        [(ex) => queries.sealedValuesPage(ex, sealed, after, 10), map],
      ];
    }),
  },
  replaceSealedValue: {
    columns: null,
    runs: queries.SEALED_COLUMNS.map(
      (sealed): Run =>
        (ex) =>
          queries.replaceSealedValue(
            ex,
            sealed,
            sealed.key.map(([, type]) => (type === "uuid" ? id() : "k")),
            "old",
            "new",
          ),
    ),
  },

  // smtp-credentials.ts (the inboxes' errors, health and IMAP state)
  recordSmtpCredentialError: { columns: null, runs: [(ex) => queries.recordSmtpCredentialError(ex, id(), "refused", now)] },
  clearSmtpCredentialError: { columns: null, runs: [(ex) => queries.clearSmtpCredentialError(ex, id())] },
  lockCredentialForHealthCheck: { columns: queries.healthCheckedCredentialColumns, runs: [(ex) => queries.lockCredentialForHealthCheck(ex, id())] },
  countAccountCredentials: { columns: queries.accountCredentialCountColumns, runs: [(ex) => queries.countAccountCredentials(ex, id())] },
  isAccountSendingAddress: { columns: null, runs: [(ex) => queries.isAccountSendingAddress(ex, id(), "a@b.test")] },
  imapInboxesOfAccounts: { columns: queries.accountImapInboxColumns, runs: [(ex) => queries.imapInboxesOfAccounts(ex, [id()])] },
  advanceImapCursor: { columns: null, runs: [(ex) => queries.advanceImapCursor(ex, id(), 1n, 2n)] },
  advanceImapCursorPastSkipped: { columns: null, runs: [(ex) => queries.advanceImapCursorPastSkipped(ex, id(), 1n, 2n)] },
  beginImapMessageTry: { columns: queries.imapMessageTryColumns, runs: [(ex) => queries.beginImapMessageTry(ex, id(), 2n, 3), (ex) => queries.beginImapMessageTry(ex, id(), 2n, 3, true)] },
  recordImapErrorOnce: { columns: null, runs: [(ex) => queries.recordImapErrorOnce(ex, id(), "refused", now)] },
  recordImapError: { columns: null, runs: [(ex) => queries.recordImapError(ex, id(), "refused", now), (ex) => queries.recordImapError(ex, id(), null, now)] },
  recordImapOk: { columns: null, runs: [(ex) => queries.recordImapOk(ex, id(), now, now)] },
  lockImapLoginFailures: { columns: queries.imapLoginFailuresColumns, runs: [(ex) => queries.lockImapLoginFailures(ex, id())] },
  resetImapLoginFailures: { columns: null, runs: [(ex) => queries.resetImapLoginFailures(ex, id())] },

  // step-sends.ts (gauges, health check, inbound matches, schedule view)
  countOpenStepSendsByState: { columns: queries.openStepSendCountColumns, runs: [(ex) => queries.countOpenStepSendsByState(ex)] },
  oldestDueReleasableSend: { columns: queries.oldestDueSendColumns, runs: [(ex) => queries.oldestDueReleasableSend(ex, now)] },
  countCredentialSendsAndBounces: { columns: queries.credentialBounceCountColumns, runs: [(ex) => queries.countCredentialSendsAndBounces(ex, id())] },
  findStepByMessageIds: { columns: queries.sentStepColumns, runs: [(ex) => queries.findStepByMessageIds(ex, id(), ["<a@b>"]), (ex) => queries.findStepByMessageIds(ex, id(), ["<a@b>"], [id()])] },
  findStepSentTo: { columns: queries.sentStepColumns, runs: [(ex) => queries.findStepSentTo(ex, id(), id(), "a@b.test", now)] },
  lockStepBounceState: { columns: queries.stepBounceStateColumns, runs: [(ex) => queries.lockStepBounceState(ex, id())] },
  accountsWithOpenSends: { columns: queries.openSendAccountColumns, runs: [(ex) => queries.accountsWithOpenSends(ex, 10)] },
  scheduledSendCounts: { columns: queries.scheduledSendCountColumns, runs: [(ex) => queries.scheduledSendCounts(ex, [id()], now)] },
  inFlightSendCounts: { columns: queries.inFlightSendCountColumns, runs: [(ex) => queries.inFlightSendCounts(ex, [id()])] },

  // enrollments.ts (replies)
  findEnrollmentRepliedFrom: { columns: queries.repliedEnrollmentColumns, runs: [(ex) => queries.findEnrollmentRepliedFrom(ex, id(), "a@b.test", id(), ["pending", "sent", "opened"])] },
  lockEnrollmentStatus: { columns: queries.enrollmentStatusColumns, runs: [(ex) => queries.lockEnrollmentStatus(ex, id())] },
  enrollmentStopSettings: { columns: queries.enrollmentStopSettingsColumns, runs: [(ex) => queries.enrollmentStopSettings(ex, id())] },
  lockScheduledStepsOf: { columns: queries.nextScheduledStepColumns, runs: [(ex) => queries.lockScheduledStepsOf(ex, id())] },
  setEnrollmentResumeAt: { columns: null, runs: [(ex) => queries.setEnrollmentResumeAt(ex, id(), now)] },
  activeEnrollmentsAtDomain: { columns: queries.repliedEnrollmentColumns, runs: [(ex) => queries.activeEnrollmentsAtDomain(ex, id(), id(), "b.test")] },

  // events.ts (gauge)
  countWebhookBacklog: { columns: queries.outboxBacklogColumns, runs: [(ex) => queries.countWebhookBacklog(ex, now)] },

  // campaigns.ts (schedule view)
  campaignsForSchedule: { columns: queries.scheduleCampaignColumns, runs: [(ex) => queries.campaignsForSchedule(ex, [id()])] },

  // step-sends.ts: the sending engine's
  sendContextOf: { columns: queries.sendContextColumns, runs: [(ex) => queries.sendContextOf(ex, id())] },
  claimSendContexts: { columns: queries.sendContextColumns, runs: [(ex) => queries.claimSendContexts(asPrisma(ex), [id()], "claimer", now)] },
  claimStepSend: { columns: null, runs: [(ex) => queries.claimStepSend(ex, id(), "claimer", now), (ex) => queries.claimStepSend(ex, id(), null, now)] },
  rescheduleClaimedSend: { columns: null, runs: [(ex) => queries.rescheduleClaimedSend(ex, id(), now, "reason", 1)] },
  rescheduleQueuedSend: { columns: null, runs: [(ex) => queries.rescheduleQueuedSend(ex, id(), now, "reason")] },
  deferSendToOpening: {
    columns: null,
    runs: [(ex) => queries.deferSendToOpening(ex, id(), now, "2026-01-01", true), (ex) => queries.deferSendToOpening(ex, id(), now, null, false)],
  },
  cancelStepSend: { columns: null, runs: [(ex) => queries.cancelStepSend(ex, id(), "reason")] },
  cancelPendingStepSends: { columns: null, runs: [(ex) => queries.cancelPendingStepSends(ex, [id()], "reason")] },
  recordSentSends: {
    columns: queries.sentSendColumns,
    runs: [
      (ex) =>
        queries.recordSentSends(asPrisma(ex), {
          stepSendIds: [id()],
          sentAts: [now],
          messageIds: ["<a@b>"],
          credentialIds: [id()],
          accountIds: [id()],
          periodStarts: [now],
          periodEnds: [now],
          notes: [null],
          outcomes: ["accepted"],
          variantIds: [null],
        }),
    ],
  },
  reviveInterruptedSend: { columns: queries.sendEnrollmentColumns, runs: [(ex) => queries.reviveInterruptedSend(ex, id(), "interrupted")] },
  rescheduleCancelledSteps: { columns: null, runs: [(ex) => queries.rescheduleCancelledSteps(ex, id(), "cancelled")] },
  markSendBounced: {
    columns: null,
    runs: [
      (ex) => queries.markSendBounced(ex, { stepSendId: id(), reason: "550", credentialId: id(), verified: true, now }),
      (ex) => queries.markSendBounced(ex, { stepSendId: id(), reason: "550", credentialId: null, verified: false, now }),
    ],
  },
  failSendingSend: { columns: null, runs: [(ex) => queries.failSendingSend(ex, id(), "error", now)] },
  skipSendingSend: { columns: null, runs: [(ex) => queries.skipSendingSend(ex, id(), "condition clicked not met", now)] },
  enrollmentOfSend: { columns: queries.sendEnrollmentColumns, runs: [(ex) => queries.enrollmentOfSend(ex, id())] },
  failSendingSendsOf: { columns: queries.sendEnrollmentColumns, runs: [(ex) => queries.failSendingSendsOf(ex, "interrupted", now, now, ["claimer"])] },
  sendingSendClaimers: { columns: queries.sendClaimerColumns, runs: [(ex) => queries.sendingSendClaimers(ex, now)] },
  releaseDueSendsFor: {
    columns: queries.releasedSendColumns,
    runs: [(ex) => queries.releaseDueSendsFor(asPrisma(ex), id(), now, 5, null, 50), (ex) => queries.releaseDueSendsFor(asPrisma(ex), id(), now, 5, id(), 50)],
  },
  releaseDueSendsForAccounts: { columns: queries.releasedSendColumns, runs: [(ex) => queries.releaseDueSendsForAccounts(asPrisma(ex), [id()], now, 5, 50)] },
  scanDueCampaignPairs: { columns: queries.dueCampaignPairColumns, runs: [(ex) => queries.scanDueCampaignPairs(ex, now, { accountId: id(), campaignId: id() }, 10, 5)] },
  queuedSendsReleasedBefore: { columns: queries.staleQueuedSendColumns, runs: [(ex) => queries.queuedSendsReleasedBefore(ex, now, 10)] },
  requeueLostReleases: {
    columns: queries.requeuedSendColumns,
    runs: [
      (ex) => queries.requeueLostReleases(ex, { ids: [id()], releasedAts: [now.toISOString()], reasons: ["lost"] }, true, 5, now),
      (ex) => queries.requeueLostReleases(ex, { ids: [id()], releasedAts: [now.toISOString()], reasons: ["lost"] }, false, 5, now),
    ],
  },
  sendsToFitInWindow: {
    columns: queries.sendToFitColumns,
    runs: [(ex) => queries.sendsToFitInWindow(ex, id(), "followUps"), (ex) => queries.sendsToFitInWindow(ex, id(), "retry")],
  },
  moveScheduledSend: { columns: null, runs: [(ex) => queries.moveScheduledSend(ex, id(), now)] },
  latestSentVariant: { columns: queries.sentVariantColumns, runs: [(ex) => queries.latestSentVariant(ex, id())] },
  sentStepTemplates: { columns: queries.sentTemplateColumns, runs: [(ex) => queries.sentStepTemplates(ex, id())] },
  lockPendingSendsOfContact: { columns: queries.lockedSendIdColumns, runs: [(ex) => queries.lockPendingSendsOfContact(ex, id(), ["pending", "sent", "opened"])] },

  // enrollments.ts: the sending engine's
  markEnrollmentsStopped: { columns: queries.enrollmentIdColumns, runs: [(ex) => queries.markEnrollmentsStopped(ex, [id()], "blocklisted", now)] },
  markEnrollmentsCompleted: { columns: queries.enrollmentIdColumns, runs: [(ex) => queries.markEnrollmentsCompleted(ex, [id()], now)] },
  lockEnrollment: { columns: queries.enrollmentIdColumns, runs: [(ex) => queries.lockEnrollment(ex, id())] },
  lockContactEnrollmentsIn: { columns: queries.contactEnrollmentColumns, runs: [(ex) => queries.lockContactEnrollmentsIn(ex, id(), id(), ["pending", "sent", "opened"])] },

  // enrollment-moves.ts
  lockMoveOrigin: { columns: queries.moveOriginColumns, runs: [(ex) => queries.lockMoveOrigin(ex, id())] },
  moveChainDepth: { columns: queries.moveChainDepthColumns, runs: [(ex) => queries.moveChainDepth(ex, id(), 10)] },
  markEnrollmentMovedOn: { columns: null, runs: [(ex) => queries.markEnrollmentMovedOn(ex, id(), "moved", now)] },
  batchForMovedContact: { columns: queries.movedContactBatchColumns, runs: [(ex) => queries.batchForMovedContact(ex, id())] },
  lockNextDueCompletedEnrollment: { columns: queries.dueCompletedEnrollmentColumns, runs: [(ex) => queries.lockNextDueCompletedEnrollment(ex, now)] },

  // contacts.ts: unsubscribes
  contactIdsByEmail: { columns: queries.contactIdColumns, runs: [(ex) => queries.contactIdsByEmail(ex, "a@b.test", id()), (ex) => queries.contactIdsByEmail(ex, "a@b.test", null)] },
  lockContactForUnsubscribe: { columns: queries.lockedContactColumns, runs: [(ex) => queries.lockContactForUnsubscribe(ex, id())] },

  // blocklist-entries.ts
  findBlockingEntryOf: { columns: queries.blockingEntryColumns, runs: [(ex) => queries.findBlockingEntryOf(ex, id(), "a@b.test", "b.test")] },
  insertBlockedAddress: { columns: null, runs: [async (ex) => (await withoutForeignKeys(), queries.insertBlockedAddress(ex, id(), "a@b.test", null, "unsubscribe"))] },

  // delivered-links.ts
  insertDeliveredLinks: { columns: null, runs: [(ex) => queries.insertDeliveredLinks(ex, id(), id())] },
  deliveredLinkOf: { columns: queries.deliveredLinkColumns, runs: [(ex) => queries.deliveredLinkOf(ex, id())] },

  // enrollment-skips.ts
  insertBlocklistedSkip: {
    columns: null,
    runs: [async (ex) => (await withoutForeignKeys(), queries.insertBlocklistedSkip(ex, { accountId: id(), campaignId: id(), contactId: id(), enrollmentId: id(), reason: "blocked: address", now }))],
  },

  insertConditionNotMetSkip: {
    columns: null,
    runs: [
      async (ex) => (
        await withoutForeignKeys(),
        queries.insertConditionNotMetSkip(ex, { accountId: id(), campaignId: id(), contactId: id(), enrollmentId: id(), reason: "condition clicked not met", now })
      ),
    ],
  },

  // oauth-connections.ts
  lockOAuthConnection: { columns: queries.oauthConnectionTokenColumns, runs: [(ex) => queries.lockOAuthConnection(ex, id())] },
  lockOAuthConnectionOfMailbox: { columns: queries.oauthConnectionTokenColumns, runs: [(ex) => queries.lockOAuthConnectionOfMailbox(ex, id(), "google", "Sales@Example.com")] },
  insertOAuthConnection: {
    columns: queries.insertedOAuthConnectionColumns,
    runs: [
      async (ex) => {
        await withoutForeignKeys();
        const c = { id: id(), accountId: id(), provider: "google", email: "Sales@Example.com", refreshTokenEnc: "sealed", accessTokenEnc: null, accessTokenExpiresAt: null, scopes: null, now };
        assert.equal(await queries.insertOAuthConnection(ex, c), c.id);
        assert.equal(await queries.insertOAuthConnection(ex, { ...c, id: id(), email: "sales@example.COM" }), undefined, "one per account, provider and address");
      },
    ],
  },
  credentialsOfOAuthConnection: { columns: queries.oauthConnectionCredentialColumns, runs: [(ex) => queries.credentialsOfOAuthConnection(ex, id())] },
  countOAuthConnectionCredentials: { columns: queries.oauthConnectionUsageColumns, runs: [(ex) => queries.countOAuthConnectionCredentials(ex, [id()])] },
  // domain-health-reports.ts
  findDomainHealthReport: { columns: queries.domainHealthReportColumns, runs: [(ex) => queries.findDomainHealthReport(ex, id(), "example.com")] },
  domainHealthStatuses: { columns: queries.domainHealthStatusColumns, runs: [(ex) => queries.domainHealthStatuses(ex, id(), ["example.com", "example.org"])] },
  saveDomainHealthReport: {
    columns: null,
    runs: [async (ex) => (await withoutForeignKeys(), queries.saveDomainHealthReport(ex, { accountId: id(), domain: "example.com", status: "warn", report: { checks: {} }, checkedAt: now }))],
  },
  sendingHostsOfDomain: { columns: queries.sendingHostColumns, runs: [(ex) => queries.sendingHostsOfDomain(ex, id(), "example.com")] },
  domainsDueForHealthCheck: { columns: queries.domainDueForHealthCheckColumns, runs: [(ex) => queries.domainsDueForHealthCheck(ex, now, 10)] },

  // reply-answers.ts
  claimReplyAnswer: { columns: null, runs: [(ex) => queries.claimReplyAnswer(ex, id(), id())] },
};

/** An insert that would need rows seeded (its foreign keys): the checks are off until the case's rollback. */
async function withoutForeignKeys(): Promise<void> {
  await client.query("SET LOCAL session_replication_role = replica");
}

/** A statement that returns its row unconditionally found none here (nothing seeded): its columns are still checked. */
function noRow(err: Error): void {
  if (!(err instanceof TypeError)) throw err;
}

/** Plan scale, which a bulk account is on (inserted in the case's transaction, outside the recorded statements). */
async function scalePlan(): Promise<void> {
  await client.query(`INSERT INTO plans (slug, name, tier, "monthlyLimit") SELECT 'scale', 'Scale', 3, 150000 WHERE NOT EXISTS (SELECT 1 FROM plans WHERE slug = 'scale')`);
}

/** A bulk account (in the case's transaction, outside the recorded statements): its id. */
async function bulkAccount(): Promise<string> {
  await scalePlan();
  return queries.insertBulkAccount(fromPg(client), `${id()}@bulk.example`);
}

/** Exports that are not query functions: the executors, the column declarations, and SQL fragments (run inside the statements above). */
const NOT_QUERIES = new Set(["executor", "fromPrisma", "fromPg", "fromDb", "columns", "isColumnMap", "blockedAddressCondition", "blockingKindSql"]);

test("every query function has a case, and every declared column map is checked", () => {
  const functions = Object.entries(queries)
    .filter(([key, value]) => typeof value === "function" && !NOT_QUERIES.has(key))
    .map(([key]) => key)
    .sort();
  assert.deepEqual(Object.keys(cases).sort(), functions, "a case per query function (and none for a function that is gone)");
  const maps = Object.entries(queries as Record<string, unknown>).filter((entry): entry is [string, ColumnMap] => isColumnMap(entry[1]));
  const checked = new Set(Object.values(cases).flatMap((c) => [c.columns, ...c.runs.flatMap((run) => (Array.isArray(run) ? [run[1]] : []))]));
  for (const [key, map] of maps) assert.ok(checked.has(map), `${key} is checked by a case`);
});

for (const [fn, { columns, runs }] of Object.entries(cases)) {
  test(`${fn}: its statements run on the schema and return the columns its rows are typed with`, async () => {
    await client.query("BEGIN");
    try {
      for (const entry of runs) {
        const [run, declared] = Array.isArray(entry) ? entry : [entry, columns];
        const { ex, ran } = recording();
        await run(ex);
        assert.ok(ran.length > 0, "it ran a statement");
        for (const statement of ran) {
          // a statement run for its effect: its rows (if any) are not read
          if (declared === null) continue;
          assert.deepEqual(await compare(declared, statement.fields), [], statement.text.trim().split("\n")[0]);
        }
      }
    } finally {
      await client.query("ROLLBACK");
    }
  });
}
