import { decryptSecret, secretAad, SecretUnreadableError, type Keyring } from "@outreach/core";
import {
  advanceImapCursorPastSkipped,
  beginImapMessageTry,
  insertSkippedInboundMessage,
  isDatabaseUnavailableError,
  lockImapLoginFailures,
  recordImapError,
  recordImapErrorOnce,
  recordImapOk,
  resetImapLoginFailures,
  type Db,
} from "@outreach/db";
import { classifyInbound, readInbound, recordInboundMessage, type InboundOutcome } from "@outreach/domain";
import type { InboxCursor, InboxEndpoint, InboxWatcherDeps } from "./inbox-watcher.js";

/** An inbox logs in with its IMAP password or, an OAuth2 mailbox, with its connection's access token. */
const IMAP_LOGIN = [{ imapPasswordEnc: { not: null } }, { oauthConnectionId: { not: null } }];

/**
 * Inboxes that should be watched (IMAP settings, an active campaign) and that
 * no replica holds the lease of: backing off after refused logins, stopped
 * after too many, unreadable, or past every replica's IMAP_MAX_CONNECTIONS.
 */
export async function countUnwatchedInboxes(db: Db, leases: { heldOf(ids: string[]): Promise<Set<string>> }): Promise<number> {
  const rows = await db.smtpCredential.findMany({ where: { imapHost: { not: null }, OR: IMAP_LOGIN, campaign: { status: "active" } }, select: { id: true } });
  const held = await leases.heldOf(rows.map((row) => row.id));
  return rows.length - held.size;
}

/**
 * Inboxes to watch: credentials with IMAP settings whose campaign is active,
 * except those whose login was refused until their retry time comes, and
 * those stopped after too many refused logins (until re-enabled).
 */
export async function listWatchedInboxes(db: Db, keyring: Keyring, now = new Date()): Promise<InboxEndpoint[]> {
  const rows = await db.smtpCredential.findMany({
    where: {
      imapHost: { not: null },
      campaign: { status: "active" },
      imapStoppedAt: null,
      AND: [{ OR: IMAP_LOGIN }, { OR: [{ imapRetryAt: null }, { imapRetryAt: { lte: now } }] }],
    },
    select: { id: true, accountId: true, imapHost: true, imapPort: true, imapSecure: true, imapUsername: true, imapPasswordEnc: true, oauthConnectionId: true },
    orderBy: { id: "asc" },
  });
  const inboxes: InboxEndpoint[] = [];
  for (const row of rows) {
    const endpoint = { credentialId: row.id, accountId: row.accountId, host: row.imapHost!, port: row.imapPort ?? 993, secure: row.imapSecure, username: row.imapUsername ?? "" };
    if (row.oauthConnectionId) {
      // an OAuth2 mailbox: its access token is asked at each login
      inboxes.push({ ...endpoint, password: "", oauthConnectionId: row.oauthConnectionId });
      continue;
    }
    let password: string;
    try {
      password = decryptSecret(row.imapPasswordEnc!, keyring, secretAad("smtp_credentials", "imapPasswordEnc", row.id));
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
      // moved from another row or column, or sealed under a key not configured: not watched, and the tenant is told
      const error = "imap_password: the stored password cannot be decrypted; set the credential's password again";
      await recordImapErrorOnce(db, row.id, error, now);
      continue;
    }
    inboxes.push({ ...endpoint, password });
  }
  return inboxes;
}

/** The cursor, and from when to look when there is none (or the mailbox was renumbered). */
export async function readInboxCursor(db: Db, credentialId: string): Promise<InboxCursor & { since: Date }> {
  const row = await db.smtpCredential.findUniqueOrThrow({ where: { id: credentialId }, select: { imapUidValidity: true, imapLastUid: true, imapCheckedAt: true, createdAt: true } });
  // IMAP SEARCH SINCE has day granularity: a day earlier, so nothing at the edge is missed
  const since = new Date((row.imapCheckedAt ?? row.createdAt).getTime() - 86_400_000);
  return { uidValidity: row.imapUidValidity, lastUid: row.imapLastUid, since };
}

export async function resetInboxCursor(db: Db, credentialId: string, uidValidity: bigint, lastUid: bigint): Promise<void> {
  await db.smtpCredential.update({ where: { id: credentialId }, data: { imapUidValidity: uidValidity, imapLastUid: lastUid, imapPendingUid: null, imapPendingTries: 0 } });
}

/**
 * Records that a try of this message starts, before it is fetched: durable,
 * so tries whose process died (out of memory, killed) count too, whichever
 * replica or restart holds the inbox next. When `maxTries` were already
 * started, nothing is written and the message is to be passed over. `again`:
 * the last try failed on the database, not on the message; this one takes its
 * place.
 */
export async function beginMessageTry(db: Db, credentialId: string, uid: bigint, maxTries: number, again = false): Promise<{ start: boolean; tries: number }> {
  const row = await beginImapMessageTry(db, credentialId, uid, maxTries, again);
  if (!row) return { start: true, tries: 1 };
  if (row.startedTries !== null) return { start: true, tries: row.startedTries };
  return { start: false, tries: row.tries };
}

/** Reads, classifies and records one message; the cursor moves past it in the same transaction. */
export async function handleInboxMessage(db: Db, credentialId: string, uidValidity: bigint, uid: bigint, raw: Buffer): Promise<InboundOutcome> {
  const message = await readInbound(raw);
  const classification = classifyInbound(message);
  const credential = await db.smtpCredential.findUnique({ where: { id: credentialId }, select: { accountId: true } });
  if (!credential) return "unmatched";
  return db.$transaction((tx) => recordInboundMessage(tx, { credentialId, accountId: credential.accountId, uidValidity, uid }, message, classification));
}

/**
 * A message that failed to be handled on every try is passed over, so it
 * cannot hold up the inbox's later mail: recorded as skipped with the
 * reason, and the cursor moves past it, in one transaction.
 */
export async function skipInboxMessage(db: Db, credentialId: string, uidValidity: bigint, uid: bigint, reason: string, now = new Date()): Promise<void> {
  const credential = await db.smtpCredential.findUnique({ where: { id: credentialId }, select: { accountId: true } });
  await db.$transaction(async (tx) => {
    await insertSkippedInboundMessage(tx, { credentialId, accountId: credential?.accountId ?? null, uidValidity, uid }, reason, now);
    await advanceImapCursorPastSkipped(tx, credentialId, uidValidity, uid);
  });
}

export interface LoginBackoff {
  /** the wait after the first refused login; it doubles with each one in a row */
  retryBaseMs: number;
  /** refused logins in a row after which the inbox is no longer tried (until re-enabled) */
  maxFailures: number;
}

/**
 * Counts a refused login: the inbox is not tried again before imapRetryAt
 * (by any replica), and after `maxFailures` in a row not at all until the
 * credential is re-enabled. Answers when to try again, or null.
 */
export async function recordLoginRefused(db: Db, credentialId: string, error: string, backoff: LoginBackoff, now = new Date()): Promise<Date | null> {
  return db.$transaction(async (tx) => {
    const failures = ((await lockImapLoginFailures(tx, credentialId)) ?? 0) + 1;
    if (failures >= backoff.maxFailures) {
      const stopped = `${error} (${failures} times in a row); no longer trying: correct the IMAP settings, then POST /campaigns/{campaign_id}/smtp_credentials/{credential_id}/reenable`;
      await tx.smtpCredential.update({ where: { id: credentialId }, data: { imapLoginFailures: failures, imapStoppedAt: now, imapRetryAt: null, imapLastError: stopped, imapCheckedAt: now } });
      return null;
    }
    const retryAt = new Date(now.getTime() + backoff.retryBaseMs * 2 ** (failures - 1));
    const waiting = `${error} (${failures} time${failures === 1 ? "" : "s"} in a row); next try after ${retryAt.toISOString()}`;
    await tx.smtpCredential.update({ where: { id: credentialId }, data: { imapLoginFailures: failures, imapRetryAt: retryAt, imapLastError: waiting, imapCheckedAt: now } });
    return retryAt;
  });
}

/** A login went through: refused logins are counted from zero again. */
export async function recordLoginAccepted(db: Db, credentialId: string): Promise<void> {
  await resetImapLoginFailures(db, credentialId);
}

/** The inbox's health as the tenant sees it on the credential; an "ok" is written at most every 30 s. */
export async function reportInboxHealth(db: Db, credentialId: string, status: "ok" | "error", error: string | null, now = new Date()): Promise<void> {
  if (status === "error") {
    await recordImapError(db, credentialId, error, now);
    return;
  }
  await recordImapOk(db, credentialId, now, new Date(now.getTime() - 30_000));
}

/** Refused logins: a minute's wait, doubling, and no more tries after five in a row (IMAP_LOGIN_RETRY_SECONDS, IMAP_LOGIN_MAX_FAILURES). */
export const DEFAULT_LOGIN_BACKOFF: LoginBackoff = { retryBaseMs: 60_000, maxFailures: 5 };

/** What a watcher keeps in the database, on these functions. */
export function inboxStoreDeps(
  db: Db,
  loginBackoff = DEFAULT_LOGIN_BACKOFF,
): Pick<InboxWatcherDeps, "readCursor" | "resetCursor" | "handleMessage" | "beginTry" | "storeUnavailable" | "skipMessage" | "reportHealth" | "loginRefused" | "loginAccepted"> {
  return {
    readCursor: (id) => readInboxCursor(db, id),
    resetCursor: (id, uidValidity, lastUid) => resetInboxCursor(db, id, uidValidity, lastUid),
    handleMessage: async (id, uidValidity, uid, raw) => void (await handleInboxMessage(db, id, uidValidity, uid, raw)),
    beginTry: (id, uid, maxTries, again) => beginMessageTry(db, id, uid, maxTries, again),
    storeUnavailable: (err) => isDatabaseUnavailableError(err),
    skipMessage: (id, uidValidity, uid, reason) => skipInboxMessage(db, id, uidValidity, uid, reason),
    reportHealth: (id, status, error) => reportInboxHealth(db, id, status, error),
    loginRefused: (id, error) => recordLoginRefused(db, id, error, loginBackoff),
    loginAccepted: (id) => recordLoginAccepted(db, id),
  };
}
