import { randomUUID } from "node:crypto";
import { decryptSecret, renderMessage } from "@outreach/core";
import { buildStepEmail } from "@outreach/domain";
import type { SenderContext } from "./sender-context.js";

// Test sends have no enrollment: their tracking links point at a nil id and do nothing.
const NO_ENROLLMENT = "00000000-0000-0000-0000-000000000000";

/**
 * test_send: every step of the campaign, in order and threaded, to one address,
 * through the campaign's first enabled credential. Merge tags use the account's
 * contact with that address when there is one. Not an enrollment, not counted
 * against the plan, no events.
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
  const contact = (await db.contact.findUnique({ where: { accountId_email: { accountId: payload.accountId, email: payload.email.toLowerCase() } } })) ?? { email: payload.email };
  const connection = await ctx.pool.acquire(payload.accountId, credential.id, {
    host: credential.smtpHost,
    port: credential.smtpPort,
    secure: credential.smtpSecure,
    username: credential.smtpUsername,
    password: decryptSecret(credential.smtpPasswordEnc, config.encryptionKey),
  });
  let broken = false;
  try {
    const previous: string[] = [];
    const firstSubject = renderMessage({ subject: campaign.steps[0]?.subject ?? "", bodyHtml: "" }, contact).subject;
    for (const step of campaign.steps) {
      const email = buildStepEmail({
        stepSendId: randomUUID(),
        enrollmentId: NO_ENROLLMENT,
        stepPosition: step.position,
        subject: step.subject,
        bodyHtml: step.bodyHtml,
        firstSubject: step.position > 1 ? firstSubject : null,
        contact: { ...contact, email: payload.email },
        from: { email: credential.fromEmail, name: credential.fromName },
        previousMessageIds: [...previous],
        publicBaseUrl: config.publicBaseUrl,
        trackingKey: config.encryptionKey,
      });
      await connection.transport.sendMail({ ...email, subject: `[Test] ${email.subject}`, headers: { ...email.headers, "X-Outreach-Test": "true" }, envelope: { from: credential.fromEmail, to: [payload.email] } });
      previous.push(email.messageId);
    }
    return `sent ${campaign.steps.length} steps`;
  } catch (err) {
    broken = true;
    throw err;
  } finally {
    ctx.pool.release(connection, broken);
  }
}
