import { setTimeout as delay } from "node:timers/promises";
import type { Db } from "@outreach/db";
import { retried } from "./retry.js";
import { callUntilAccepted, idempotentImport, type ApiTarget, type IdempotentUse } from "./api-traffic.js";
import type { Peers } from "./peers.js";

export interface LoadProfile {
  accounts: number;
  inboxesPerAccount: number;
  contactsPerAccount: number;
  /** delay_minutes of steps 2 and 3 (step 1 is 0) */
  followUpDelayMinutes: number;
  /** share of contacts that answer step 1 */
  replyShare: number;
}

export interface ChaosAccount {
  index: number;
  accountId: string;
  token: string;
  campaignId: string;
  inboxes: string[];
  webhookUrl: string;
  /** when the campaign was dispatched (ms since epoch), 0 until then */
  dispatchedAt: number;
}

/** A reply put into a watched inbox, answering a step-1 message the SMTP server received. */
export interface PlantedReply {
  messageId: string;
  inReplyTo: string;
  contactEmail: string;
  inbox: string;
  at: number;
}

/** a loaded machine answers slowly, and nothing is faulted while accounts are set up */
const SETUP_TIMEOUT_MS = 30_000;

/** the step send an email is (its Message-ID is <send id@domain>) */
export function sendIdOf(messageId: string | undefined): string {
  return /^<([0-9a-f-]{36})@/.exec(messageId ?? "")?.[1] ?? "";
}

export const INBOX_PASSWORD = "chaos-inbox";
export const STEP_SUBJECTS = ["Step one for {{first_name}}", "Step two for {{first_name}}", "Step three for {{first_name}}"];

function contactEmail(runId: string, account: number, contact: number): string {
  return `c${contact}-a${account}-${runId}@example.com`;
}

/**
 * An account as a customer sets it up, all through the API: signup, the plan (the only direct write, as a
 * payment would do it), a webhook, a contact import, a three-step campaign with inboxes that Dovecot
 * watches, the enrollment. Dispatched later by dispatchAccount.
 */
export async function setUpAccount(target: ApiTarget, db: Db, peers: Peers, profile: LoadProfile, runId: string, index: number): Promise<ChaosAccount> {
  // a signup is not idempotent: a retry (its answer lost) signs up under another address
  const signup = await callUntilAccepted(target, "POST", "/signup", {
    body: (attempt: number) => ({ email: `owner${attempt}-a${index}-${runId}@example.test` }),
    accept: (r) => r.status === 201,
    timeoutMs: SETUP_TIMEOUT_MS,
  });
  const token = signup.body.api_key.plaintext as string;
  const accountId = signup.body.account_id as string;
  const scale = await retried(() => db.plan.findUniqueOrThrow({ where: { slug: "scale" } }));
  await retried(() => db.account.update({ where: { id: accountId }, data: { planId: scale.id } }));
  const receiver = peers.receivers[index % peers.receivers.length]!;
  await callUntilAccepted(target, "POST", "/webhooks", {
    token,
    timeoutMs: SETUP_TIMEOUT_MS,
    idempotencyKey: `hook-${runId}-${index}`,
    body: { url: receiver.url, event_filters: ["*", "reply.categorized"] },
  });
  const contacts = Array.from({ length: profile.contactsPerAccount }, (_, c) => ({ email: contactEmail(runId, index, c), first_name: `C${c}` }));
  const imported = await callUntilAccepted(target, "POST", "/contact_imports", {
    token,
    timeoutMs: SETUP_TIMEOUT_MS,
    idempotencyKey: `contacts-${runId}-${index}`,
    body: { name: "audience", contacts },
  });
  const inboxes = Array.from({ length: profile.inboxesPerAccount }, (_, k) => `inbox${k}-a${index}-${runId}@sender.test`);
  const campaign = await callUntilAccepted(target, "POST", "/campaigns", {
    token,
    timeoutMs: SETUP_TIMEOUT_MS,
    idempotencyKey: `campaign-${runId}-${index}`,
    body: {
      campaign: {
        name: `Chaos ${index}`,
        min_wait_seconds: 0,
        max_wait_seconds: 0,
        smtp_credentials: inboxes.map((inbox) => ({
          label: inbox,
          from_email: inbox,
          smtp_host: peers.smtp.host,
          smtp_port: peers.smtp.port,
          smtp_secure: false,
          smtp_username: inbox,
          smtp_password: "pw",
          daily_limit: 5_000,
          imap_host: peers.dovecot.host,
          imap_port: peers.dovecot.port,
          imap_secure: false,
          imap_username: inbox,
          imap_password: INBOX_PASSWORD,
        })),
        sequence_steps: STEP_SUBJECTS.map((subject, i) => ({
          position: i + 1,
          subject,
          body_html: `<p>${subject}: a short note.</p>`,
          delay_minutes: i === 0 ? 0 : profile.followUpDelayMinutes,
        })),
      },
    },
  });
  const campaignId = campaign.body.id as string;
  // enrolling the same import again adds nobody: a retry is harmless
  await callUntilAccepted(target, "POST", `/campaigns/${campaignId}/enroll`, { token, timeoutMs: SETUP_TIMEOUT_MS, body: { contact_import_id: imported.body.id } });
  return { index, accountId, token, campaignId, inboxes, webhookUrl: receiver.url, dispatchedAt: 0 };
}

/** POST /campaigns/:id/dispatch of batch 1; after a lost answer the retry may find it dispatched already (checked in the database). */
export async function dispatchAccount(target: ApiTarget, db: Db, account: ChaosAccount): Promise<void> {
  const dispatched = async () => (await retried(() => db.campaign.findUniqueOrThrow({ where: { id: account.campaignId } }))).status === "active";
  for (let attempt = 0; !(await dispatched()); attempt++) {
    await callUntilAccepted(target, "POST", `/campaigns/${account.campaignId}/dispatch`, {
      token: account.token,
      body: { batch_number: 1 },
      accept: (r) => r.status === 200 || r.status === 409 || r.status === 422,
      startAt: attempt,
    }).catch(() => delay(500));
  }
  account.dispatchedAt = Date.now();
}

/**
 * Contacts that answer do so once their step 1 has arrived and its inbox is watched: the reply, threaded to the
 * received message (In-Reply-To and References), is appended to the inbox in Dovecot.
 */
export class ReplyWriter {
  readonly planted: PlantedReply[] = [];
  private readonly answered = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly peers: Peers,
    private readonly replies: (email: string) => boolean,
  ) {}

  async tick(): Promise<void> {
    const due = this.peers.smtp.messages.filter((m) => m.parsed.subject?.startsWith("Step one for") && !this.answered.has(m.envelope.to[0]!) && this.replies(m.envelope.to[0]!));
    if (!due.length) return;
    // a contact answers as soon as the email arrives, recorded by the engine or not yet (a reply is matched by the
    // send id in the Message-ID it cites, even while the send's record waits out a database outage)
    const watched = new Set(
      (await this.db.smtpCredential.findMany({ where: { imapUidValidity: { not: null }, fromEmail: { in: [...new Set(due.map((m) => m.envelope.from))] } }, select: { fromEmail: true } })).map(
        (c) => c.fromEmail,
      ),
    );
    for (const message of due) {
      const contact = message.envelope.to[0]!;
      const inbox = message.envelope.from;
      if (!watched.has(inbox)) continue;
      this.answered.add(contact);
      const messageId = `<reply-${this.planted.length}-${contact}>`;
      const raw = [
        `From: ${contact}`,
        `To: ${inbox}`,
        `Subject: Re: ${message.parsed.subject}`,
        `Date: ${new Date().toUTCString()}`,
        `Message-ID: ${messageId}`,
        `In-Reply-To: ${message.parsed.messageId}`,
        `References: ${message.parsed.messageId}`,
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Sounds interesting, tell me more.",
        "",
      ].join("\r\n");
      await this.peers.dovecot.appendMessage(inbox, raw);
      this.planted.push({ messageId, inReplyTo: message.parsed.messageId!, contactEmail: contact, inbox, at: Date.now() });
    }
  }
}

/** Idempotent imports, one key after another, alternating the replica tried first, until stopped. */
export async function idempotentTraffic(target: ApiTarget, accounts: ChaosAccount[], runId: string, stopped: () => boolean, uses: IdempotentUse[]): Promise<void> {
  for (let n = 0; !stopped(); n++) {
    const account = accounts[n % accounts.length]!;
    uses.push(await idempotentImport(target, account.token, `idem-${runId}-${n}`, n));
    await delay(300);
  }
}
