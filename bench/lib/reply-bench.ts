// Pieces of the reply benchmark (bench/replies.ts): bulk-SQL seeding of inboxes on
// the benchmark's Dovecot with enrollments that got step 1, replies APPENDed at a
// steady pace, and the APPEND-to-enrollment.replied latencies read back from the
// database. Nothing here is used by the test suite.
import { randomUUID } from "node:crypto";
import { Keyring } from "@outreach/core";
import { executor, type Db } from "@outreach/db";
import { waitFor, sealCredentialPasswordsInPlace } from "@outreach/testing";
import type { BenchDovecot, ImapAppender } from "./bench-dovecot.js";
import { round } from "./numbers.js";
import { insertBenchAccount } from "./seeding.js";
import { ENCRYPTION_KEY } from "./settings.js";
import { percentile } from "./webhook-bench.js";

export const INBOX_PASSWORD = "imap-secret";

export interface ReplyTarget {
  enrollmentId: string;
  inbox: string;
  contactEmail: string;
  /** our step 1's Message-ID, with <> */
  messageId: string;
}

export interface SeededInboxes {
  accountId: string;
  inboxes: string[];
  /** one per enrollment, in order */
  targets: ReplyTarget[];
}

export { seededRandom } from "@outreach/testing";

/**
 * One account (plan scale), one active two-step campaign, `inboxes` credentials whose
 * IMAP settings point at the benchmark's Dovecot (users added there too), and
 * `enrollments` contacts that got step 1 (Message-ID known, step 2 scheduled), the
 * j-th sending through inbox `inboxOf(j)`. A few SQL statements.
 */
export async function seedInboxes(
  db: Db,
  dovecot: BenchDovecot,
  o: { label: string; inboxes: number; enrollments: number; inboxOf: (j: number) => number; implicitTls?: boolean },
): Promise<SeededInboxes> {
  const inboxes = Array.from({ length: o.inboxes }, (_, i) => `${o.label}-inbox-${i + 1}@sender.bench`);
  await dovecot.addUsers(inboxes.map((email) => ({ email, password: INBOX_PASSWORD })));
  const keyring = new Keyring(ENCRYPTION_KEY);
  const accountId = await insertBenchAccount(db, o.label);
  const [campaign] = await executor(db).rows<{ id: string }>(`INSERT INTO campaigns ("accountId", name, status, "updatedAt") VALUES ($1::uuid, $2, 'active', now()) RETURNING id`, [
    accountId,
    `replies ${o.label}`,
  ]);
  const campaignId = campaign!.id;
  await executor(db).execute(
    `INSERT INTO sequence_steps ("campaignId", position, subject, "bodyHtml", "delayMinutes") VALUES ($1::uuid, 1, 'Hello', '<p>Hi</p>', 0), ($1::uuid, 2, '', '<p>Again</p>', 1440)`,
    [campaignId],
  );
  // created a minute ago, as a credential saved before the poller started
  const credentials = await executor(db).rows<{ id: string; imapUsername: string }>(
    `INSERT INTO smtp_credentials ("accountId", "campaignId", label, "fromEmail", "smtpHost", "smtpPort", "smtpSecure", "smtpUsername", "smtpPasswordEnc", "dailyLimit",
                                   "imapHost", "imapPort", "imapSecure", "imapUsername", "imapPasswordEnc", "createdAt")
     SELECT $1::uuid, $2::uuid, 'Inbox ' || ord, u, '127.0.0.1', 25, false, u, $3, 100, $4, $5, $8, u, $6, now() - interval '1 minute'
     FROM unnest($7::text[]) WITH ORDINALITY AS t(u, ord)
     RETURNING id, "imapUsername"`,
    [accountId, campaignId, "sealed below", dovecot.host, o.implicitTls ? dovecot.tlsPort : dovecot.port, "sealed below", inboxes, o.implicitTls === true],
  );
  await sealCredentialPasswordsInPlace(
    db,
    keyring,
    credentials.map((c) => c.id),
    "x",
    INBOX_PASSWORD,
  );
  const credentialOf = new Map(credentials.map((c) => [c.imapUsername, c.id]));
  const rows = Array.from({ length: o.enrollments }, (_, j) => {
    const inbox = inboxes[o.inboxOf(j)]!;
    return { inbox, credentialId: credentialOf.get(inbox)!, contactEmail: `reader-${j + 1}@${o.label}.example.com`, messageId: `<${randomUUID()}@sender.bench>` };
  });
  await executor(db).execute(
    `WITH input AS (SELECT * FROM unnest($3::text[], $4::uuid[], $5::text[]) AS t(email, cred, mid)),
     c AS (INSERT INTO contacts ("accountId", email, "firstName", "updatedAt") SELECT $1::uuid, email, 'Reader', now() FROM input RETURNING id, email),
     e AS (INSERT INTO enrollments ("accountId", "campaignId", "contactId", status, "credentialId", "sentAt", "dispatchedAt", "updatedAt")
           SELECT $1::uuid, $2::uuid, c.id, 'sent'::"EnrollmentStatus", input.cred, now(), now(), now() FROM c JOIN input USING (email) RETURNING id, "contactId", "credentialId"),
     s1 AS (INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "limitDay", "messageId", "sentAt", "updatedAt")
            SELECT $1::uuid, $2::uuid, e.id, 1, e."credentialId", 'sent'::"StepSendState", now(), current_date, input.mid, now(), now()
            FROM e JOIN c ON c.id = e."contactId" JOIN input USING (email))
     INSERT INTO step_sends ("accountId", "campaignId", "enrollmentId", "stepPosition", "credentialId", state, "dueAt", "updatedAt")
     SELECT $1::uuid, $2::uuid, e.id, 2, e."credentialId", 'scheduled'::"StepSendState", now() + interval '1 day', now() FROM e`,
    [accountId, campaignId, rows.map((r) => r.contactEmail), rows.map((r) => r.credentialId), rows.map((r) => r.messageId)],
  );
  const enrollmentOf = new Map(
    (await executor(db).rows<{ id: string; email: string }>(`SELECT e.id, c.email FROM enrollments e JOIN contacts c ON c.id = e."contactId" WHERE e."accountId" = $1::uuid`, [accountId])).map((r) => [
      r.email,
      r.id,
    ]),
  );
  const targets = rows.map((r) => ({ enrollmentId: enrollmentOf.get(r.contactEmail)!, inbox: r.inbox, contactEmail: r.contactEmail, messageId: r.messageId }));
  if (targets.some((t) => !t.enrollmentId)) throw new Error("seeding lost an enrollment");
  return { accountId, inboxes, targets };
}

/** A plain-text reply to our step 1, threaded by In-Reply-To and References. */
export function replyTo(target: ReplyTarget): string {
  const headers = {
    Date: new Date().toUTCString(),
    "Message-ID": `<${randomUUID()}@example.com>`,
    From: `Reader <${target.contactEmail}>`,
    To: target.inbox,
    Subject: "Re: Hello",
    "In-Reply-To": target.messageId,
    References: target.messageId,
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=utf-8",
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `${lines.join("\r\n")}\r\n\r\nSounds good, let's talk next week.\r\n\r\n> Hi\r\n`;
}

/** How many of the account's inboxes the poller has checked at least once (cursor set, checked_at set). */
export async function connectedInboxes(db: Db, accountId: string): Promise<number> {
  const [row] = await executor(db).rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM smtp_credentials WHERE "accountId" = $1::uuid AND "imapUidValidity" IS NOT NULL AND "imapCheckedAt" IS NOT NULL`,
    [accountId],
  );
  return row!.n;
}

/**
 * Samples connectedInboxes every 200 ms until all `total` are connected or `timeoutMs`
 * passes; answers the ms (from `from`) at which 1, 50 %, 90 % and all were reached, and
 * for each extra probe (e.g. leases taken, sockets open) the ms at which it reached `total`.
 */
export async function connectTimeline(db: Db, accountId: string, total: number, from: number, timeoutMs: number, probes: Record<string, () => Promise<number>> = {}) {
  const marks: Record<string, number | null> = { first: null, half: null, ninety_pct: null, all: null };
  const probeMarks: Record<string, number | null> = Object.fromEntries(Object.keys(probes).map((name) => [name, null]));
  let connected = 0;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const [name, probe] of Object.entries(probes)) {
      if (probeMarks[name] === null && (await probe().catch(() => 0)) >= total) probeMarks[name] = Date.now() - from;
    }
    connected = await connectedInboxes(db, accountId);
    const ms = Date.now() - from;
    if (connected >= 1) marks.first ??= ms;
    if (connected >= total * 0.5) marks.half ??= ms;
    if (connected >= total * 0.9) marks.ninety_pct ??= ms;
    if (connected >= total) {
      marks.all = ms;
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { connected, total, ms_to_checked: marks, ...(Object.keys(probes).length ? { ms_to_all: probeMarks } : {}) };
}

export interface LatencyStats {
  count: number;
  detected: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  min_ms: number;
  mean_ms: number;
}

export function latencyStats(values: number[], sent: number): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sent,
    detected: values.length,
    p50_ms: round(percentile(sorted, 0.5)),
    p95_ms: round(percentile(sorted, 0.95)),
    max_ms: round(sorted[sorted.length - 1] ?? Number.NaN),
    min_ms: round(sorted[0] ?? Number.NaN),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}

/**
 * APPENDs a reply for each target, one every `paceMs` (each on a connection to its
 * inbox opened beforehand, so the clock covers only the APPEND), then waits until every
 * enrollment is replied. Latency: the enrollment.replied event's createdAt minus
 * Date.now() just before the APPEND; also reported against the enrollment's repliedAt.
 */
export async function measureReplies(db: Db, dovecot: BenchDovecot, seeded: SeededInboxes, targets: ReplyTarget[], o: { paceMs: number; timeoutMs: number }) {
  const appenders = new Map<string, ImapAppender>();
  for (const inbox of new Set(targets.map((t) => t.inbox))) appenders.set(inbox, await dovecot.appender(inbox, INBOX_PASSWORD));
  const appendedAt = new Map<string, number>();
  const appendMs: number[] = [];
  try {
    const start = Date.now();
    for (const [i, target] of targets.entries()) {
      const wait = start + i * o.paceMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const raw = replyTo(target);
      const before = Date.now();
      appendedAt.set(target.enrollmentId, before);
      await appenders.get(target.inbox)!.append(raw);
      appendMs.push(Date.now() - before);
    }
    const ids = targets.map((t) => t.enrollmentId);
    let replied = 0;
    await waitFor(
      async () => {
        const [row] = await executor(db).rows<{ n: number }>(`SELECT count(*)::int AS n FROM enrollments WHERE id = ANY($1::uuid[]) AND status = 'replied'`, [ids]);
        replied = row!.n;
        return replied >= ids.length;
      },
      { timeoutMs: o.timeoutMs, intervalMs: 100, what: "every reply detected" },
    ).catch(() => undefined);
    const events = await executor(db).rows<{ enrollmentId: string; createdAt: Date }>(
      `SELECT data->>'enrollment_id' AS "enrollmentId", "createdAt" FROM events WHERE "accountId" = $1::uuid AND type = 'enrollment.replied'`,
      [seeded.accountId],
    );
    const enrollments = await executor(db).rows<{ id: string; repliedAt: Date | null }>(`SELECT id, "repliedAt" FROM enrollments WHERE id = ANY($1::uuid[])`, [ids]);
    const byEvent: number[] = [];
    const byRepliedAt: number[] = [];
    const eventCounts = new Map<string, number>();
    for (const event of events) {
      eventCounts.set(event.enrollmentId, (eventCounts.get(event.enrollmentId) ?? 0) + 1);
      const at = appendedAt.get(event.enrollmentId);
      if (at !== undefined) byEvent.push(event.createdAt.getTime() - at);
    }
    for (const row of enrollments) {
      const at = appendedAt.get(row.id);
      if (at !== undefined && row.repliedAt) byRepliedAt.push(row.repliedAt.getTime() - at);
    }
    const sortedAppend = [...appendMs].sort((a, b) => a - b);
    return {
      replies: targets.length,
      inboxes_replied_to: appenders.size,
      pace_ms: o.paceMs,
      latency_event_created_at: latencyStats(byEvent, targets.length),
      latency_replied_at: latencyStats(byRepliedAt, targets.length),
      append_call_ms: { p50: percentile(sortedAppend, 0.5), p95: percentile(sortedAppend, 0.95), max: sortedAppend[sortedAppend.length - 1] },
      enrollments_replied: replied,
      duplicate_events: [...eventCounts.values()].filter((n) => n > 1).length,
    };
  } finally {
    await Promise.all([...appenders.values()].map((a) => a.close()));
  }
}

/**
 * The floor the server sets: a bare imapflow client in IDLE on an inbox nobody else
 * watches, `count` APPENDs one after another (each awaited), Date.now() before the
 * APPEND to the EXISTS the IDLE client receives.
 */
export async function rawIdleBaseline(dovecot: BenchDovecot, count: number) {
  const email = `baseline-${randomUUID().slice(0, 8)}@sender.bench`;
  await dovecot.addUsers([{ email, password: INBOX_PASSWORD }]);
  const listener = await dovecot.idleListener(email, INBOX_PASSWORD);
  const appender = await dovecot.appender(email, INBOX_PASSWORD);
  const target: ReplyTarget = { enrollmentId: "", inbox: email, contactEmail: "reader@baseline.example.com", messageId: "<baseline@sender.bench>" };
  const latencies: number[] = [];
  try {
    // the first EXISTS may come late while the listener's IDLE starts
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < count; i++) {
      const exists = listener.nextExists();
      const before = Date.now();
      await appender.append(replyTo(target));
      const timeout = new Promise<null>((r) => setTimeout(() => r(null), 10_000).unref());
      const at = await Promise.race([exists, timeout]);
      if (at !== null) latencies.push(at - before);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await appender.close();
    await listener.close();
  }
  return latencyStats(latencies, count);
}

/**
 * The floor for connecting: `inboxes` bare imapflow clients connecting, logging in and
 * EXAMINEing INBOX all at once (what the poller's first round asks of the server), then
 * logging out. Answers the ms until all were done and the failures by message.
 */
export async function rawConnectBurst(dovecot: BenchDovecot, inboxes: string[]) {
  const started = Date.now();
  const failures = new Map<string, number>();
  const held: Array<{ close(): Promise<void> }> = [];
  await Promise.all(
    inboxes.map(async (inbox) => {
      try {
        held.push(await dovecot.idleListener(inbox, INBOX_PASSWORD));
      } catch (err) {
        const key = String((err as Error).message).slice(0, 120);
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }),
  );
  const ms = Date.now() - started;
  await Promise.all(held.map((c) => c.close()));
  return { clients: inboxes.length, connected: held.length, ms_all_connected_and_examined: ms, failures: Object.fromEntries(failures) };
}
