import { randomUUID } from "node:crypto";
import { EgressRefusedError, renderMessage, SecretUnreadableError, UnrecoverableError } from "@outreach/core";
import { buildStepEmail, MailboxAuthRevokedError, parseStepVariants, recordCredentialError } from "@outreach/domain";
import { classifySmtpError } from "./classify-smtp-error.js";
import type { SenderContext } from "./sender-context.js";
import { loginEndpointOf, renewRefusedToken } from "./mailbox-login.js";

// Test sends have no enrollment: their tracking links point at a nil id and do nothing.
const NO_ENROLLMENT = "00000000-0000-0000-0000-000000000000";

/**
 * test_send: every step of the campaign (every variant of a step with
 * variants), in order and threaded, to one address,
 * through the campaign's first enabled credential. Merge tags use the account's
 * contact with that address when there is one. Not an enrollment, not counted
 * against the plan (the API counts it against the account's daily test-send
 * allowance), no events. Never to an address that unsubscribed in the account.
 * A failure of the inbox itself is recorded on the credential, where the
 * tenant sees it.
 */
export async function sendTest(ctx: SenderContext, payload: { accountId: string; campaignId: string; email: string }): Promise<string> {
  const { db, config } = ctx;
  const campaign = await db.campaign.findFirst({
    where: { id: payload.campaignId, accountId: payload.accountId },
    include: { steps: { orderBy: { position: "asc" } }, credentials: { where: { disabledAt: null }, orderBy: { createdAt: "asc" } } },
  });
  if (!campaign) return "campaign gone";
  const credential = campaign.credentials[0];
  if (!credential) throw new Error("the campaign has no enabled credential to send the test through");
  const contact = (await db.contact.findUnique({ where: { accountId_email: { accountId: payload.accountId, email: payload.email.toLowerCase() } } })) ?? { email: payload.email, unsubscribedAt: null };
  if (contact.unsubscribedAt) return "address unsubscribed: not sent";
  let connection;
  try {
    connection = await ctx.pool.acquire(payload.accountId, credential.id, await loginEndpointOf(credential, ctx.keyring, ctx.mailboxTokens));
  } catch (err) {
    // an OAuth2 mailbox to reconnect: its error and event are recorded by MailboxTokens
    if (err instanceof MailboxAuthRevokedError) throw new UnrecoverableError(err.reason);
    if (!(err instanceof EgressRefusedError) && !(err instanceof SecretUnreadableError)) throw err;
    const reason = err instanceof EgressRefusedError ? `smtp_host ${err.message}` : err.message;
    await recordCredentialError(db, credential.id, reason);
    // retrying cannot help until the tenant changes the credential
    throw new UnrecoverableError(reason);
  }
  let broken = false;
  try {
    const previous: string[] = [];
    const firstSubject = renderMessage({ subject: campaign.steps[0]?.subject ?? "", bodyHtml: "" }, contact).subject;
    let sent = 0;
    for (const step of campaign.steps) {
      // every variant of a step, so each can be checked; the first one threads the later steps
      const variants = parseStepVariants(step.variants) ?? [{ subject: step.subject, bodyHtml: step.bodyHtml }];
      const threadedTo = [...previous];
      for (const [index, variant] of variants.entries()) {
        const email = buildStepEmail({
          stepSendId: randomUUID(),
          enrollmentId: NO_ENROLLMENT,
          stepPosition: step.position,
          subject: variant.subject,
          bodyHtml: variant.bodyHtml,
          firstSubject: step.position > 1 ? firstSubject : null,
          contact: { ...contact, email: payload.email },
          from: { email: credential.fromEmail, name: credential.fromName },
          previousMessageIds: threadedTo,
          publicBaseUrl: config.publicBaseUrl,
          trackingDomain: credential.trackingDomain ?? campaign.trackingDomain,
          // a test send's links are left as written: a redirect of a nil enrollment would lead anywhere, forever
          trackClicks: false,
          trackingKey: ctx.keyring,
          textOnly: step.textOnly,
          unsubscribeFooter: campaign.unsubscribeFooter,
        });
        const label = variants.length > 1 ? `[Test] [Variant ${index + 1} of ${variants.length}]` : "[Test]";
        await ctx.pool.send(connection, {
          ...email,
          subject: `${label} ${email.subject}`,
          headers: { ...email.headers, "X-Outreach-Test": "true" },
          envelope: { from: credential.fromEmail, to: [payload.email] },
        });
        if (index === 0) previous.push(email.messageId);
        sent += 1;
      }
    }
    return `sent ${sent} emails for ${campaign.steps.length} steps`;
  } catch (err) {
    broken = true;
    const classified = classifySmtpError(err, connection.progress.phase);
    if (classified.kind === "credential") await recordCredentialError(db, credential.id, classified.reason);
    // the job's next try logs in with a new token
    await renewRefusedToken(ctx.mailboxTokens, credential, err);
    // the last step may have reached the address: a retry would send the test again
    if (classified.kind === "unknown") throw new UnrecoverableError(classified.reason);
    throw err;
  } finally {
    ctx.pool.release(connection, broken);
  }
}
