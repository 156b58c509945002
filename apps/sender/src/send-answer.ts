import { EgressRefusedError, htmlToText, SecretUnreadableError, UnrecoverableError } from "@outreach/core";
import { claimReplyAnswer } from "@outreach/db";
import { MailboxAuthRevokedError, recordCredentialError } from "@outreach/domain";
import { classifySmtpError } from "./classify-smtp-error.js";
import type { SenderContext } from "./sender-context.js";
import { loginEndpointOf, renewRefusedToken } from "./mailbox-login.js";
import type { SmtpConnection } from "./smtp-pool.js";
import type { SmtpPhase } from "./smtp-progress.js";

type Payload = { accountId: string; answerId: string };
/** What this needs of the BullMQ job: how many tries it has had and may have. */
type JobTries = { attemptsMade: number; opts: { attempts?: number } };

const bracketed = (id: string) => `<${id}>`;

/** queued -> sending, atomically: only one sender works on an answer; a row in any other state is not sent (again). */
async function claimAnswer(ctx: SenderContext, payload: Payload): Promise<boolean> {
  const claimed = await claimReplyAnswer(ctx.db, payload.answerId, payload.accountId);
  return claimed === 1;
}

async function finish(ctx: SenderContext, answerId: string, state: "sent" | "failed" | "queued", error: string | null): Promise<void> {
  await ctx.db.replyAnswer.update({
    where: { id: answerId },
    data: { state, lastError: error, ...(state === "sent" ? { sentAt: new Date() } : {}) },
  });
}

/** True when BullMQ will not run this job again after a failure now. */
function lastAttempt(job: JobTries | undefined): boolean {
  return !job || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/**
 * POST /replies/:id/answer: the answer goes out through the inbox that
 * received the reply, From its address, To the reply's sender, threaded
 * (In-Reply-To the reply's Message-ID, References its References and that
 * id), with the Message-ID the API gave the row. A personal answer: no
 * tracking pixel, no unsubscribe link or List-Unsubscribe, no enrollment
 * event. A temporary refusal is retried through the job's attempts (the row
 * goes back to queued), then failed; a permanent refusal, an unknown outcome
 * (the body went out, no answer came: never sent twice) and a refused host
 * fail it at once. A failure of the inbox itself is recorded on the
 * credential, where the tenant sees it.
 */
export async function sendAnswer(ctx: SenderContext, payload: Payload, job?: JobTries): Promise<string> {
  const { db } = ctx;
  if (!(await claimAnswer(ctx, payload))) return "not queued: nothing to do";
  const answer = await db.replyAnswer.findUniqueOrThrow({ where: { id: payload.answerId }, include: { inboundMessage: true } });
  const reply = answer.inboundMessage;
  const credential = await db.smtpCredential.findFirst({ where: { id: answer.credentialId, accountId: payload.accountId } });
  if (!credential || credential.disabledAt) {
    await finish(ctx, answer.id, "failed", credential ? "the inbox is disabled" : "the inbox no longer exists");
    return "inbox unavailable";
  }
  if (!reply.fromEmail) {
    await finish(ctx, answer.id, "failed", "the reply has no sender address to answer");
    return "no recipient";
  }

  let connection: SmtpConnection;
  try {
    connection = await ctx.pool.acquire(payload.accountId, credential.id, await loginEndpointOf(credential, ctx.keyring, ctx.mailboxTokens));
  } catch (err) {
    if (err instanceof EgressRefusedError) {
      await recordCredentialError(db, credential.id, `smtp_host ${err.message}`);
      await finish(ctx, answer.id, "failed", `smtp_host ${err.message}`);
      // retrying cannot help until the tenant changes the credential
      throw new UnrecoverableError(`smtp_host ${err.message}`);
    }
    if (err instanceof SecretUnreadableError) {
      await recordCredentialError(db, credential.id, err.message);
      await finish(ctx, answer.id, "failed", err.message);
      throw new UnrecoverableError(err.message);
    }
    // an OAuth2 mailbox to reconnect (its error and event are recorded by MailboxTokens)
    if (err instanceof MailboxAuthRevokedError) {
      await finish(ctx, answer.id, "failed", err.reason);
      throw new UnrecoverableError(err.reason);
    }
    await finish(ctx, answer.id, lastAttempt(job) ? "failed" : "queued", (err as Error).message);
    throw err;
  }

  const references = [...reply.references.filter((id) => id !== reply.messageId), ...(reply.messageId ? [reply.messageId] : [])].map(bracketed);
  let failure: unknown;
  let phase: SmtpPhase = "envelope";
  try {
    await ctx.pool.send(connection, {
      from: credential.fromName ? { name: credential.fromName, address: credential.fromEmail } : credential.fromEmail,
      to: reply.fromName ? { name: reply.fromName, address: reply.fromEmail } : reply.fromEmail,
      subject: answer.subject,
      html: answer.bodyHtml,
      text: htmlToText(answer.bodyHtml),
      messageId: answer.messageId,
      ...(reply.messageId ? { inReplyTo: bracketed(reply.messageId) } : {}),
      ...(references.length ? { references } : {}),
      envelope: { from: credential.fromEmail, to: [reply.fromEmail] },
    });
  } catch (err) {
    failure = err;
    phase = connection.progress.phase;
  } finally {
    // a failed session is closed, never reused
    ctx.pool.release(connection, failure !== undefined);
  }
  // Accepted: recorded sent. Should that write fail, the job's retry finds the row
  // "sending" and does nothing: the answer is never sent twice.
  if (failure === undefined) {
    await finish(ctx, answer.id, "sent", null);
    return "sent";
  }
  const classified = classifySmtpError(failure, phase);
  if (classified.kind === "credential") await recordCredentialError(db, credential.id, classified.reason);
  // the job's next try logs in with a new token
  await renewRefusedToken(ctx.mailboxTokens, credential, failure);
  if (classified.kind === "bounce" || classified.kind === "unknown") {
    await finish(ctx, answer.id, "failed", classified.reason);
    throw new UnrecoverableError(classified.reason);
  }
  await finish(ctx, answer.id, lastAttempt(job) ? "failed" : "queued", classified.reason);
  throw failure;
}
