import { randomUUID } from "node:crypto";
import { classifyInbound, createClickToken, createTrackingToken, readInbound, recordInboundMessage } from "@outreach/domain";
import { liftQuotas, startTestApi, type TestApi } from "../helpers.js";
import { startReceiver, type Receiver } from "../webhook-receiver.js";
import { FIXTURE_LINK, FuzzFixtures } from "./fixtures.js";
import { callJson } from "./http.js";

export const FUZZ_RELAY_SECRET = "fuzz-relay-secret";

/**
 * The API as the fuzz runs it: limits raised far above what the run sends, so
 * it measures the API and not the limiters (one small case elsewhere checks a
 * 429); loopback webhooks allowed, with a short timeout; the signed provider
 * routes configured, so a bad signature is checked rather than refused outright.
 */
export const FUZZ_API_ENV: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: "100000000",
  RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: "100000000",
  AUTH_FAILURE_LIMIT_PER_MINUTE: "100000000",
  TRACKING_RATE_LIMIT_PER_MINUTE: "100000000",
  SIGNUP_LIMIT_PER_HOUR: "100000000",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_TIMEOUT_MS: "2000",
  RELAY_WEBHOOK_SECRET: FUZZ_RELAY_SECRET,
  STRIPE_WEBHOOK_SECRET: "whsec_fuzz_provider_secret",
};

export interface FuzzEnvironment {
  api: TestApi;
  receiver: Receiver;
  token: string;
  keyId: string;
  accountId: string;
  fixtures: FuzzFixtures;
  close(): Promise<void>;
}

/** The real API in-process, a fuzz account with its quotas lifted, and its fixtures. */
export async function startFuzzEnvironment(env: Record<string, string> = {}): Promise<FuzzEnvironment> {
  const receiver = await startReceiver();
  const api = await startTestApi({ ...FUZZ_API_ENV, ...env });
  try {
    const signup = await callJson(api.baseUrl, "POST", "/signup", undefined, { email: `fuzz-${randomUUID().slice(0, 8)}@example.com` }, [201]);
    const accountId: string = signup.account_id;
    const token: string = signup.api_key.plaintext;
    await liftQuotas(api, accountId);
    const fixtures = new FuzzFixtures({ baseUrl: api.baseUrl, token, webhookUrl: receiver.url });
    await fixtures.setUp();
    await addSentMailFixtures(api, accountId, fixtures);
    return {
      api,
      receiver,
      token,
      keyId: signup.api_key.id,
      accountId,
      fixtures,
      async close() {
        await api.close();
        await receiver.close();
      },
    };
  } catch (err) {
    await api.close();
    await receiver.close();
    throw err;
  }
}

/**
 * What only mail that was sent and answered gives: a sent step of the kept
 * campaign with a reply to it, and the tracking tokens of that enrollment (open
 * pixel, tracked link, unsubscribe), written as the sender and the IMAP poller
 * write them.
 */
async function addSentMailFixtures(api: TestApi, accountId: string, fixtures: FuzzFixtures): Promise<void> {
  const db = api.database.db;
  const campaignId = fixtures.of("campaign")[0]!;
  const credentialId = fixtures.of("smtpCredential")[0]!;
  const email = `fuzz-replier-${randomUUID().slice(0, 8)}@example.com`;
  const contact = await db.contact.create({ data: { accountId, email } });
  const now = new Date();
  const enrollment = await db.enrollment.create({ data: { accountId, campaignId, contactId: contact.id, status: "sent", sentAt: now, credentialId } });
  const messageId = `<${randomUUID()}@example.com>`;
  const limitDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  await db.stepSend.create({ data: { accountId, campaignId, enrollmentId: enrollment.id, stepPosition: 1, credentialId, state: "sent", dueAt: now, sentAt: now, messageId, limitDay } });

  const headers = {
    Date: now.toUTCString(),
    "Message-ID": `<${randomUUID()}@example.org>`,
    From: `Fuzz Replier <${email}>`,
    To: "fuzz-sender@example.com",
    Subject: "Re: Hello",
    "In-Reply-To": messageId,
    References: messageId,
    "MIME-Version": "1.0",
    "Content-Type": "text/plain; charset=utf-8",
  };
  const message = await readInbound(
    `${Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\r\n")}\r\n\r\nSounds good, let's talk.\r\n`,
  );
  await db.$transaction((tx) => recordInboundMessage(tx, { credentialId, accountId, uidValidity: 1n, uid: 1n }, message, classifyInbound(message)));
  const reply = await db.inboundMessage.findFirstOrThrow({ where: { credentialId, uid: 1n } });
  fixtures.add("reply", [reply.id]);

  const keyring = api.ctx.keyring;
  const click = createClickToken(enrollment.id, FIXTURE_LINK, keyring);
  fixtures.add("openToken", [createTrackingToken("open", enrollment.id, keyring), `${createTrackingToken("open", enrollment.id, keyring)}.gif`]);
  fixtures.add("unsubscribeToken", [createTrackingToken("unsubscribe", enrollment.id, keyring)]);
  fixtures.add("clickToken", [click.token]);
  fixtures.add("clickUrl", [click.encodedUrl]);
}
