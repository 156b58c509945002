import { EgressRefusedError, renderMessage, SecretUnreadableError, errorFields } from "@outreach/core";
import {
  buildStepEmail,
  cancelSend,
  clearCredentialError,
  deferToNextOpening,
  nextOpening,
  recordBlockedSend,
  recordCredentialError,
  recordBounce,
  stepContentFor,
  MailboxAuthRevokedError,
  MailboxTokenUnavailableError,
  recordTemporaryFailure,
  returnQueuedSend,
  returnSendToSchedule,
  skipUnmetCondition,
  unmetConditionReason,
  type SendContext,
  type SendCredential,
  type SentInput,
} from "@outreach/domain";
import { classifySmtpError } from "./classify-smtp-error.js";
import { isLoginRefusal, loginEndpointOf, loginSourceOf } from "./mailbox-login.js";
import type { SenderContext } from "./sender-context.js";
import { endpointKey, NoSessionAvailableError, type SmtpConnection, type SmtpEndpoint } from "./smtp-pool.js";
import type { SmtpPhase } from "./smtp-progress.js";

/** A send that found every session of its account taken waits this long before its next release. */
const NO_SESSION_RETRY_MS = 1_000;
/** A send whose OAuth2 mailbox could not get an access token (the provider's token endpoint failed) waits this long. */
const TOKEN_UNAVAILABLE_RETRY_MS = 30_000;
/** A send whose OAuth2 mailbox was revoked goes back this long, to another inbox of the campaign or held until it is reconnected. */
const MAILBOX_REVOKED_RETRY_MS = 1_000;

const STOPPED = new Set(["replied", "bounced", "unsubscribed"]);

/** Retries a database write a few times: the email is already out, losing its record would be worse. */
async function persist<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  }
}

function pickCredential(credentials: SendCredential[], preferredId: string | null, enrollmentId: string): SendCredential | undefined {
  // an OAuth2 mailbox whose refresh token was refused cannot log in until it is reconnected: like a disabled inbox
  const enabled = credentials.filter((c) => !c.disabled && !c.oauthAuthFailed);
  const preferred = enabled.find((c) => c.id === preferredId);
  if (preferred) return preferred;
  if (enabled.length === 0) return undefined;
  // a stable choice per enrollment, so its later steps stay on the same inbox
  const index = parseInt(enrollmentId.replace(/-/g, "").slice(-8), 16) % enabled.length;
  return enabled[index];
}

/**
 * One send-email job: take an SMTP session of the inbox the send was routed
 * by, claim the step and read it (one statement, shared with concurrent
 * sends), check it should still go out, send it, record the outcome with its
 * events, and release the account's next due sends. The session comes before
 * the claim, so a step is "sending" only while it is really in SMTP: a sender
 * that dies while waiting for a session leaves it queued, and another sender
 * takes it. (The first send of an inbox in a process has no session to take
 * yet: it is claimed first, then its session opened.)
 */
export async function sendStep(ctx: SenderContext, payload: { accountId: string; stepSendId: string; credentialId?: string }): Promise<string> {
  // the inbox whose session this send used: its next send is released first, to reuse the session
  const used: { credentialId: string | null } = { credentialId: null };
  try {
    return await deliver(ctx, payload, used);
  } finally {
    await ctx.releases.request(payload.accountId, used.credentialId);
  }
}

async function deliver(ctx: SenderContext, payload: { stepSendId: string; credentialId?: string }, used: { credentialId: string | null }): Promise<string> {
  const { db, config } = ctx;
  const routed = payload.credentialId ? ctx.endpoints.get(payload.credentialId) : undefined;
  let connection: SmtpConnection | undefined;
  if (routed) {
    try {
      connection = await ctx.pool.acquire(routed.accountId, payload.credentialId!, routed.endpoint);
    } catch (err) {
      if (err instanceof NoSessionAvailableError) {
        // not a failure of the send: it goes back to the schedule without spending an attempt
        await returnQueuedSend(db, payload.stepSendId, new Date(Date.now() + NO_SESSION_RETRY_MS), err.message);
        return "no session";
      }
      // a refused host or anything else: decided below, once the send is claimed and read
      if (!(err instanceof EgressRefusedError)) throw err;
    }
  }
  let send: SendContext | null;
  try {
    send = await ctx.claims.run(payload.stepSendId);
  } catch (err) {
    if (connection) ctx.pool.release(connection);
    throw err;
  }
  if (!send) {
    if (connection) ctx.pool.release(connection);
    return "not claimable";
  }
  const picked = pickCredential(send.credentials, send.credentialId ?? send.enrollmentCredentialId, send.enrollmentId);
  const outcome = await settleWithoutSmtp(ctx, send, picked);
  if (outcome) {
    if (connection) ctx.pool.release(connection);
    return outcome;
  }
  const credential = picked!;
  let endpoint: SmtpEndpoint;
  try {
    endpoint = await endpointOf(ctx, send.accountId, credential);
  } catch (err) {
    if (connection) ctx.pool.release(connection);
    // a stored password that does not open (moved from another row, key missing): the credential's error
    if (err instanceof SecretUnreadableError) return recordCredentialFailure(ctx, send.id, credential.id, send.attempts, err.message);
    const held = await holdForMailboxToken(ctx, send.id, err);
    if (held) return held;
    throw err;
  }
  if (connection && (connection.credentialId !== credential.id || connection.endpointKey !== endpointKey(endpoint))) {
    // routed by another inbox (this one was disabled), or its password or host changed since
    ctx.pool.release(connection, connection.endpointKey !== endpointKey(endpoint));
    connection = undefined;
  }
  if (!connection) {
    try {
      connection = await ctx.pool.acquire(send.accountId, credential.id, endpoint);
    } catch (err) {
      // the inbox's host may not be reached: the credential's error, an attempt of the send
      if (err instanceof EgressRefusedError) return recordCredentialFailure(ctx, send.id, credential.id, send.attempts, `smtp_host ${err.message}`);
      await returnSendToSchedule(db, send.id, new Date(Date.now() + NO_SESSION_RETRY_MS), (err as Error).message);
      if (err instanceof NoSessionAvailableError) return "no session";
      throw err;
    }
  }
  const contact = send.contact;
  // the enrollment's variant of the step (and of step 1, whose subject a follow-up's "Re: " repeats)
  const content = stepContentFor(send.step!, send.enrollmentId, send.stepPosition);
  const first = send.first ? stepContentFor(send.first, send.enrollmentId, 1) : null;
  const email = buildStepEmail({
    stepSendId: send.id,
    enrollmentId: send.enrollmentId,
    stepPosition: send.stepPosition,
    subject: content.subject,
    bodyHtml: content.bodyHtml,
    firstSubject: first ? renderMessage({ subject: first.subject, bodyHtml: "" }, contact).subject : null,
    contact,
    from: { email: credential.fromEmail, name: credential.fromName },
    previousMessageIds: send.previousMessageIds,
    publicBaseUrl: config.publicBaseUrl,
    trackingDomain: credential.trackingDomain ?? send.trackingDomain,
    trackClicks: send.trackClicks,
    trackingKey: ctx.keyring,
    textOnly: send.step!.textOnly,
    unsubscribeFooter: send.unsubscribeFooter,
  });
  used.credentialId = credential.id;
  let failure: unknown;
  let phase: SmtpPhase = "envelope";
  for (let login = 1; ; login++) {
    failure = undefined;
    try {
      await ctx.pool.send(connection, { ...email, envelope: { from: credential.fromEmail, to: [contact.email] } });
    } catch (err) {
      failure = err;
      phase = connection.progress.phase;
    } finally {
      // a failed session is closed, never reused
      ctx.pool.release(connection, failure !== undefined);
    }
    // An OAuth2 mailbox's token refused (revoked, or expired before its time): once more, on a
    // new session with a refreshed token. Servers answer a bare 535, which nodemailer does not retry.
    if (failure === undefined || login > 1 || !endpoint.oauth || phase === "body" || !isLoginRefusal(failure)) break;
    try {
      endpoint = await endpointOf(ctx, send.accountId, credential, { forceRefresh: true });
      connection = await ctx.pool.acquire(send.accountId, credential.id, endpoint);
    } catch (err) {
      const held = await holdForMailboxToken(ctx, send.id, err);
      if (held) return held;
      if (err instanceof EgressRefusedError) return recordCredentialFailure(ctx, send.id, credential.id, send.attempts, `smtp_host ${err.message}`);
      await returnSendToSchedule(db, send.id, new Date(Date.now() + NO_SESSION_RETRY_MS), (err as Error).message);
      if (err instanceof NoSessionAvailableError) return "no session";
      throw err;
    }
  }

  // From here the step may have gone out: it is never sent again.
  const delivered = {
    stepSendId: send.id,
    accountId: send.accountId,
    credentialId: credential.id,
    messageId: email.messageId,
    accountPeriod: send.accountPeriod,
    variantId: content.variantId,
    now: new Date(),
  };
  if (failure === undefined) {
    const recorded = await recordDelivered(ctx, { ...delivered, outcome: "accepted" });
    if (recorded && credential.hasError) await clearCredentialError(db, credential.id).catch((err) => ctx.logger.warn("could not clear the credential's error", { ...errorFields(err) }));
    return recorded ? "sent" : "sent, record pending";
  }
  const classified = classifySmtpError(failure, phase);
  if (classified.kind === "unknown") {
    // the server may have the message: it counts as sent (the sequence goes on) and is never retried
    ctx.logger.warn("SMTP outcome unknown: recorded as sent, not retried", { stepSendId: send.id, credentialId: credential.id, error: classified.reason });
    const recorded = await recordDelivered(ctx, { ...delivered, outcome: "unknown", note: classified.reason });
    return recorded ? "sent, outcome unknown" : "sent, outcome unknown, record pending";
  }
  if (classified.kind === "credential") return recordCredentialFailure(ctx, send.id, credential.id, send.attempts, classified.reason);
  if (classified.kind === "bounce") {
    await persist(() =>
      db.$transaction((tx) => recordBounce(tx, { enrollmentId: send.enrollmentId, accountId: send.accountId, reason: classified.reason, stepSendId: send.id, credentialId: credential.id })),
    );
    return "bounced";
  }
  ctx.logger.warn("temporary SMTP failure", { stepSendId: send.id, credentialId: credential.id, error: classified.reason });
  // the claim counted this attempt (send.attempts includes it)
  const result = await persist(() => db.$transaction((tx) => recordTemporaryFailure(tx, send.id, send.attempts, classified.reason)));
  return result === "retry" ? "retry" : "failed";
}

/**
 * The inbox's SMTP endpoint, its password decrypted once per change of the
 * stored credential rather than on every send; kept so the next send routed by
 * this inbox can take its session before its claim. An OAuth2 mailbox's is
 * made for each send: its access token is checked (served from memory while
 * valid), and a refused one replaced (`forceRefresh`).
 */
async function endpointOf(ctx: SenderContext, accountId: string, credential: SendCredential, options: { forceRefresh?: boolean } = {}): Promise<SmtpEndpoint> {
  const source = loginSourceOf(credential);
  const cached = ctx.endpoints.get(credential.id);
  if (cached?.source === source && !credential.oauthConnectionId) return cached.endpoint;
  const endpoint = await loginEndpointOf(credential, ctx.keyring, ctx.mailboxTokens, options);
  ctx.endpoints.set(credential.id, { accountId, source, endpoint });
  return endpoint;
}

/**
 * A claimed send whose OAuth2 mailbox has no access token now, back to the
 * schedule without spending an attempt (the contact is not at fault, and no
 * bounce): revoked (MailboxTokens recorded the error on the credential, with
 * its credential.auth_failed event; the send goes to another inbox of the
 * campaign, or waits for the mailbox to be reconnected), or the provider's
 * token endpoint failed (tried again later). undefined for any other error.
 */
async function holdForMailboxToken(ctx: SenderContext, stepSendId: string, err: unknown): Promise<string | undefined> {
  if (err instanceof MailboxAuthRevokedError) {
    ctx.logger.warn("OAuth2 mailbox revoked: the send goes back to the schedule", { stepSendId, connectionId: err.connectionId, error: err.reason });
    await returnSendToSchedule(ctx.db, stepSendId, new Date(Date.now() + MAILBOX_REVOKED_RETRY_MS), err.reason);
    return "mailbox revoked";
  }
  if (err instanceof MailboxTokenUnavailableError) {
    ctx.logger.warn("no access token for an OAuth2 mailbox now: the send goes back to the schedule", { stepSendId, connectionId: err.connectionId, error: err.message });
    await returnSendToSchedule(ctx.db, stepSendId, new Date(Date.now() + TOKEN_UNAVAILABLE_RETRY_MS), err.message);
    return "mailbox token unavailable";
  }
  return undefined;
}

/**
 * A claimed send that does not go out now, and what became of it: back to
 * the schedule (account suspended, campaign not active, no enabled inbox,
 * outside its sending window), cancelled (enrollment stopped, contact unsubscribed, step gone),
 * skipped (address blocklisted since it was planned) or skipped because its
 * condition (opened, clicked, ...) is not met now that it is due.
 * undefined when it goes out.
 */
async function settleWithoutSmtp(ctx: SenderContext, send: SendContext, credential: SendCredential | undefined): Promise<string | undefined> {
  const { db } = ctx;
  if (send.accountSuspended) {
    // held at its due time, no attempt spent: released again once the account is unsuspended
    await returnSendToSchedule(db, send.id, send.dueAt, "account suspended");
    return "held";
  }
  if (send.campaignStatus !== "active" || !credential) {
    const later = send.campaignStatus !== "active" ? send.dueAt : new Date(Date.now() + 60_000);
    await returnSendToSchedule(db, send.id, later, send.campaignStatus !== "active" ? `campaign ${send.campaignStatus}` : "no enabled credential");
    return "held";
  }
  if (STOPPED.has(send.enrollmentStatus) || send.contact.unsubscribedAt || send.enrollmentStopped || !send.step) {
    const why = !send.step ? "the step no longer exists" : `enrollment ${send.contact.unsubscribedAt ? "unsubscribed" : send.enrollmentStopped ? "stopped" : send.enrollmentStatus}`;
    await cancelSend(db, send.id, why);
    return "cancelled";
  }
  if (send.blocked) {
    // blocked since it was planned: skipped (kind blocklisted), the enrollment stopped
    await recordBlockedSend(db, {
      stepSendId: send.id,
      enrollmentId: send.enrollmentId,
      accountId: send.accountId,
      campaignId: send.campaignId,
      contactId: send.contact.id,
      email: send.contact.email,
    });
    return "blocklisted";
  }
  const unmet = unmetConditionReason(send.step.condition, { openedAt: send.enrollmentOpenedAt, clickedAt: send.enrollmentClickedAt });
  if (unmet) {
    // judged once, when due: the next step keeps its own time
    await skipUnmetCondition(db, { stepSendId: send.id, enrollmentId: send.enrollmentId, contactId: send.contact.id, campaignId: send.campaignId, accountId: send.accountId, reason: unmet });
    return "condition not met";
  }
  // released inside its window but picked up after it closed (a backlog, no free session): wait for the next opening
  const now = new Date();
  const opening = nextOpening(send.schedule, send.zone, now);
  if (opening > now) {
    // a step 1 of a campaign with a daily_limit goes to a day it still has room on
    await deferToNextOpening(db, { ...send, stepSendId: send.id }, opening);
    return "outside the sending window";
  }
  return undefined;
}

/**
 * Records a send that left through SMTP (accepted, or outcome unknown). Its
 * journal entry is written first, so that neither PostgreSQL being away nor
 * this process dying before the record loses it: the entry stays until the
 * record is written, here or by a later replay (SentJournal). Returns false
 * when the record is left to the replay. Throws only when neither Redis nor
 * PostgreSQL took it; the send then stays "sending" and the sweeper fails it
 * (never resent).
 */
async function recordDelivered(ctx: SenderContext, input: SentInput & { now: Date }): Promise<boolean> {
  const journaled = await ctx.journal.write(input).then(
    () => true,
    (err) => {
      ctx.logger.warn("could not journal a delivered send; recording it directly", { stepSendId: input.stepSendId, ...errorFields(err) });
      return false;
    },
  );
  try {
    await persist(
      async () => {
        if (!(await ctx.records.run(input))) throw new Error(`send ${input.stepSendId} was not in state sending`);
      },
      journaled ? 2 : 5,
    );
  } catch (err) {
    if (!journaled) throw err;
    ctx.logger.warn("the send's record waits in the journal until PostgreSQL takes it", { stepSendId: input.stepSendId, ...errorFields(err) });
    return false;
  }
  if (journaled) ctx.journal.remove(input.stepSendId);
  return true;
}

/** A claimed send that failed because of its inbox: the error goes on the credential, the send is retried later like a temporary failure. */
async function recordCredentialFailure(ctx: SenderContext, stepSendId: string, credentialId: string, attempts: number, reason: string): Promise<string> {
  ctx.logger.warn("SMTP credential failure", { stepSendId, credentialId, error: reason });
  const result = await persist(() =>
    ctx.db.$transaction(async (tx) => {
      await recordCredentialError(tx, credentialId, reason);
      return recordTemporaryFailure(tx, stepSendId, attempts, reason);
    }),
  );
  return result === "retry" ? "credential error, retry" : "credential error, failed";
}
