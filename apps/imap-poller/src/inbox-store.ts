import { decryptSecret, secretAad, SecretUnreadableError, type Keyring } from "@outreach/core";
import type { Db } from "@outreach/db";
import { classifyInbound, readInbound, recordInboundMessage, type InboundOutcome } from "@outreach/domain";
import type { InboxCursor, InboxEndpoint } from "./inbox-watcher.js";

/** Inboxes to watch: credentials with IMAP settings whose campaign is active. */
export async function listWatchedInboxes(db: Db, keyring: Keyring): Promise<InboxEndpoint[]> {
  const rows = await db.smtpCredential.findMany({
    where: { imapHost: { not: null }, imapPasswordEnc: { not: null }, campaign: { status: "active" } },
    select: { id: true, imapHost: true, imapPort: true, imapSecure: true, imapUsername: true, imapPasswordEnc: true },
    orderBy: { id: "asc" },
  });
  const inboxes: InboxEndpoint[] = [];
  for (const row of rows) {
    let password: string;
    try {
      password = decryptSecret(row.imapPasswordEnc!, keyring, secretAad("smtp_credentials", "imapPasswordEnc", row.id));
    } catch (err) {
      if (!(err instanceof SecretUnreadableError)) throw err;
      // moved from another row or column, or sealed under a key not configured: not watched, and the tenant is told
      const error = "imap_password: the stored password cannot be decrypted; set the credential's password again";
      await db.$executeRaw`UPDATE smtp_credentials SET "imapLastError" = ${error}, "imapCheckedAt" = ${new Date()} WHERE id = ${row.id}::uuid AND "imapLastError" IS DISTINCT FROM ${error}`;
      continue;
    }
    inboxes.push({
      credentialId: row.id,
      host: row.imapHost!,
      port: row.imapPort ?? 993,
      secure: row.imapSecure,
      username: row.imapUsername ?? "",
      password,
    });
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
  await db.smtpCredential.update({ where: { id: credentialId }, data: { imapUidValidity: uidValidity, imapLastUid: lastUid } });
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
 * cannot hold up the inbox's later mail: recorded as unmatched, and the
 * cursor moves past it, in one transaction.
 */
export async function skipInboxMessage(db: Db, credentialId: string, uidValidity: bigint, uid: bigint, now = new Date()): Promise<void> {
  await db.$transaction([
    db.$executeRaw`
      INSERT INTO inbound_messages (id, "credentialId", "uidValidity", uid, kind, "receivedAt")
      VALUES (gen_random_uuid(), ${credentialId}::uuid, ${uidValidity}, ${uid}, 'unmatched', ${now})
      ON CONFLICT ("credentialId", "uidValidity", uid) DO NOTHING`,
    db.$executeRaw`
      UPDATE smtp_credentials SET "imapUidValidity" = ${uidValidity}, "imapLastUid" = GREATEST(COALESCE("imapLastUid", 0), ${uid})
      WHERE id = ${credentialId}::uuid AND ("imapUidValidity" IS NULL OR "imapUidValidity" = ${uidValidity})`,
  ]);
}

/** The inbox's health as the tenant sees it on the credential; an "ok" is written at most every 30 s. */
export async function reportInboxHealth(db: Db, credentialId: string, status: "ok" | "error", error: string | null, now = new Date()): Promise<void> {
  if (status === "error") {
    await db.$executeRaw`UPDATE smtp_credentials SET "imapLastError" = ${error}, "imapCheckedAt" = ${now} WHERE id = ${credentialId}::uuid`;
    return;
  }
  await db.$executeRaw`
    UPDATE smtp_credentials SET "imapLastError" = NULL, "imapCheckedAt" = ${now}
    WHERE id = ${credentialId}::uuid AND ("imapLastError" IS NOT NULL OR "imapCheckedAt" IS NULL OR "imapCheckedAt" < ${new Date(now.getTime() - 30_000)})`;
}
