import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  apiRequest,
  dovecotUnavailableReason,
  LOOPBACK_MAIL_ENV,
  skipWithoutSystemServer,
  startDovecot,
  startOAuthStandIn,
  startSmtpServer,
  startWebhookReceiver,
  type DovecotTestServer,
  type OAuthStandIn,
  type SmtpTestServer,
  type WebhookReceiver,
} from "@outreach/testing";
import { startApiServer, type ApiServer } from "../kit/api.js";
import { startDeliverer, type Deliverer } from "../kit/webhook-deliverer.js";
import { startEngine, waitFor, type Engine } from "./harness.js";
import { startPoller } from "./watched-inbox.js";

// An OAuth2 (XOAUTH2) mailbox end to end: the credential made through the API from a refresh
// token, its sequence sent through an SMTP server that accepts only XOAUTH2 logins with a token the
// provider (the stand-in) issued, its replies read from Dovecot with the oauth2 passdb, an expired
// token refreshed, and a revoked one reported on the credential and to a webhook.
const MAILBOX = "sales@example.test";

let standIn: OAuthStandIn;
let engine: Engine;
let smtp: SmtpTestServer;
let dovecot: DovecotTestServer;
let api: ApiServer;
let deliverer: Deliverer;
let receiver: WebhookReceiver;
let poller: Awaited<ReturnType<typeof startPoller>> | undefined;

const skip = skipWithoutSystemServer("Dovecot", dovecotUnavailableReason());

before(async () => {
  if (skip) return;
  standIn = await startOAuthStandIn();
  const oauthEnv = {
    GOOGLE_OAUTH_CLIENT_ID: standIn.clientId,
    GOOGLE_OAUTH_CLIENT_SECRET: standIn.clientSecret,
    GOOGLE_OAUTH_AUTHORIZE_URL: standIn.authorizeUrl,
    GOOGLE_OAUTH_TOKEN_URL: standIn.tokenUrl,
  };
  engine = await startEngine(oauthEnv);
  smtp = await startSmtpServer({ xoauth2: (user, token) => standIn.userOfAccessToken(token) === user });
  dovecot = await startDovecot({ oauth2: { introspectionUrl: standIn.introspectionUrl, accessTokenFor: (email) => standIn.issueAccessToken(email) } });
  const shared = { DATABASE_URL: engine.config.databaseUrl, QUEUE_PREFIX: engine.config.queuePrefix, LOG_LEVEL: "error" };
  api = await startApiServer({ ...shared, PUBLIC_BASE_URL: "http://outreach.test", WEBHOOK_ALLOW_PRIVATE_URLS: "true", RATE_LIMIT_PER_MINUTE: "100000", ...LOOPBACK_MAIL_ENV, ...oauthEnv });
  deliverer = await startDeliverer(shared, engine.database);
  receiver = await startWebhookReceiver();
  poller = await startPoller(engine, oauthEnv);
});

after(async () => {
  await poller?.close();
  await receiver?.close();
  await deliverer?.stop();
  await api?.close();
  await engine?.stop();
  await smtp?.close();
  await dovecot?.close();
  await standIn?.close();
});

const call = (method: string, path: string, token?: string, body?: unknown) => apiRequest(api.baseUrl, method, path, { token, body });
const sentTo = (email: string) => smtp.messagesTo(email);
const refreshGrants = () => standIn.tokenRequests.filter((r) => r.grant_type === "refresh_token").length;

async function enroll(token: string, campaignId: string, contacts: Array<{ email: string; first_name: string }>): Promise<void> {
  const imported = await call("POST", "/contact_imports", token, { contacts });
  assert.equal(imported.status, 201, imported.text);
  const enrolled = await call("POST", `/campaigns/${campaignId}/enroll`, token, { contact_import_id: imported.body.id });
  assert.equal(enrolled.body.enrolled, contacts.length, enrolled.text);
  const dispatched = await call("POST", `/campaigns/${campaignId}/dispatch`, token, {});
  assert.equal(dispatched.status, 200, dispatched.text);
}

/** Brings the contact's next scheduled step forward to now. */
async function makeNextStepDue(campaignId: string, email: string, position: number): Promise<void> {
  const step = await waitFor(() => engine.db.stepSend.findFirst({ where: { campaignId, stepPosition: position, state: "scheduled", enrollment: { contact: { email } } } }), {
    what: `${email}'s step ${position} scheduled`,
    timeoutMs: 20_000,
  });
  await engine.db.stepSend.update({ where: { id: step.id }, data: { dueAt: new Date() } });
}

test("an OAuth2 mailbox sends a whole sequence with XOAUTH2, has its reply read over XOAUTH2, refreshes an expired token and reports a revoked one", { skip }, async () => {
  const { token } = await (async () => {
    const res = await call("POST", "/signup", undefined, { email: "oauth-owner@acme.test" });
    assert.equal(res.status, 201, res.text);
    return { token: res.body.api_key.plaintext as string };
  })();
  const hook = await call("POST", "/webhooks", token, { url: receiver.url, event_filters: ["credential.auth_failed"] });
  assert.equal(hook.status, 201, hook.text);

  const refreshToken = standIn.issueRefreshToken(MAILBOX);
  const created = await call("POST", "/campaigns", token, {
    name: "OAuth2 mailbox",
    min_wait_seconds: 0,
    max_wait_seconds: 0,
    smtp_credentials: [
      {
        label: "Google mailbox",
        from_email: MAILBOX,
        auth: { type: "oauth2", provider: "google", refresh_token: refreshToken },
        smtp_host: smtp.host,
        smtp_port: smtp.port,
        smtp_secure: false,
        imap_host: dovecot.host,
        imap_port: dovecot.port,
        imap_secure: false,
        daily_limit: 100,
      },
    ],
    sequence_steps: [
      { position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}}, a quick question.</p>", delay_minutes: 0 },
      { position: 2, subject: "", body_html: "<p>Following up</p>", delay_minutes: 600 },
      { position: 3, subject: "", body_html: "<p>Last note</p>", delay_minutes: 600 },
    ],
  });
  assert.equal(created.status, 201, created.text);
  const campaignId = created.body.id as string;
  const credentialId = created.body.smtp_credentials?.[0]?.id ?? (await engine.db.smtpCredential.findFirstOrThrow({ where: { campaignId } })).id;

  // step 1 to both contacts, each session logged in with XOAUTH2 and a token the provider issued for the mailbox
  await enroll(token, campaignId, [
    { email: "ann@prospect.test", first_name: "Ann" },
    { email: "bob@prospect.test", first_name: "Bob" },
  ]);
  await waitFor(() => sentTo("ann@prospect.test").length === 1 && sentTo("bob@prospect.test").length === 1, { what: "both step-1 emails", timeoutMs: 30_000 });
  for (const message of smtp.messages) {
    assert.equal(message.username, MAILBOX);
    assert.ok(message.accessToken && standIn.userOfAccessToken(message.accessToken) === MAILBOX, "logged in with a token the stand-in issued for the mailbox");
  }
  assert.ok(smtp.xoauth2Logins.length > 0 && smtp.xoauth2Logins.every((login) => login.accepted));
  assert.ok(refreshGrants() >= 1, "the access token came from a refresh_token grant");

  // Bob replies: the poller, logged in to Dovecot with XOAUTH2, marks his enrollment replied
  await waitFor(async () => (await engine.db.smtpCredential.findUniqueOrThrow({ where: { id: credentialId } })).imapUidValidity !== null, { what: "the inbox to be watched", timeoutMs: 30_000 });
  const bobStep1 = sentTo("bob@prospect.test")[0]!.parsed.messageId!;
  await dovecot.appendMessage(
    MAILBOX,
    [
      "From: Bob <bob@prospect.test>",
      `To: ${MAILBOX}`,
      "Subject: Re: Hello Bob",
      `Date: ${new Date().toUTCString()}`,
      "Message-ID: <bob-reply@prospect.test>",
      `In-Reply-To: ${bobStep1}`,
      `References: ${bobStep1}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Sounds good, let's talk.",
      "",
    ].join("\r\n"),
  );
  await waitFor(async () => (await engine.db.enrollment.findFirst({ where: { campaignId, contact: { email: "bob@prospect.test" } } }))?.status === "replied", {
    what: "Bob's enrollment replied",
    timeoutMs: 30_000,
  });

  // every access token expires (and the provider ends the open sessions): step 2 still goes out, on a refreshed token
  const grantsBefore = refreshGrants();
  standIn.expireAccessTokens();
  smtp.dropSessions();
  await makeNextStepDue(campaignId, "ann@prospect.test", 2);
  await waitFor(() => sentTo("ann@prospect.test").length === 2, { what: "Ann's step 2", timeoutMs: 30_000 });
  assert.ok(refreshGrants() > grantsBefore, "the stand-in saw a refresh_token grant after the expiry");
  const step2 = sentTo("ann@prospect.test")[1]!;
  assert.equal(standIn.userOfAccessToken(step2.accessToken!), MAILBOX, "step 2 went out on a fresh token");
  assert.ok(
    smtp.xoauth2Logins.some((login) => !login.accepted),
    "the expired token was refused first",
  );

  await makeNextStepDue(campaignId, "ann@prospect.test", 3);
  await waitFor(() => sentTo("ann@prospect.test").length === 3, { what: "Ann's step 3", timeoutMs: 30_000 });
  assert.deepEqual(
    sentTo("ann@prospect.test").map((m) => m.parsed.subject),
    ["Hello Ann", "Re: Hello Ann", "Re: Hello Ann"],
  );
  assert.equal(sentTo("bob@prospect.test").length, 1, "Bob replied: no follow-up");

  // a test send of the sequence goes through the same mailbox
  const tested = await call("POST", `/campaigns/${campaignId}/test_send`, token, { emails: ["qa@acme.test"] });
  assert.equal(tested.status, 200, tested.text);
  const tests = await waitFor(() => (sentTo("qa@acme.test").length === 3 ? sentTo("qa@acme.test") : undefined), { what: "the test emails", timeoutMs: 30_000 });
  assert.ok(tests.every((m) => m.username === MAILBOX && standIn.userOfAccessToken(m.accessToken!) === MAILBOX));

  // the provider's token endpoint fails while a token must be refreshed: the send waits, no attempt spent, nothing marked
  standIn.expireAccessTokens();
  smtp.dropSessions();
  standIn.failNextTokenRequests(1_000, 503);
  await enroll(token, campaignId, [{ email: "dan@prospect.test", first_name: "Dan" }]);
  const waiting = await waitFor(
    async () => {
      const row = await engine.db.stepSend.findFirst({ where: { campaignId, stepPosition: 1, enrollment: { contact: { email: "dan@prospect.test" } } } });
      return row?.state === "scheduled" && row.lastError ? row : undefined;
    },
    { what: "Dan's step 1 back on the schedule", timeoutMs: 30_000 },
  );
  assert.match(waiting.lastError!, /token endpoint/);
  assert.equal(waiting.attempts, 0);
  const connected = (await call("GET", `/campaigns/${campaignId}`, token)).body.smtp_credentials.find((c: any) => c.id === credentialId);
  assert.deepEqual([connected.auth.status, connected.auth.error], ["connected", null]);
  standIn.failNextTokenRequests(0);
  await engine.db.stepSend.update({ where: { id: waiting.id }, data: { dueAt: new Date() } });
  await waitFor(() => sentTo("dan@prospect.test").length === 1, { what: "Dan's step 1 once the token endpoint is back", timeoutMs: 30_000 });

  // the user removes the app's access: the next send finds the mailbox revoked
  standIn.revokeMailbox(MAILBOX);
  smtp.dropSessions();
  const delivered = smtp.messages.length;
  await enroll(token, campaignId, [{ email: "cid@prospect.test", first_name: "Cid" }]);
  const credential = await waitFor(
    async () => {
      const res = await call("GET", `/campaigns/${campaignId}`, token);
      const found = res.body.smtp_credentials?.find((c: any) => c.id === credentialId);
      return found?.auth?.status === "auth_failed" ? found : undefined;
    },
    { what: "the credential's auth_failed status", timeoutMs: 30_000 },
  );
  assert.equal(credential.auth.type, "oauth2");
  assert.equal(credential.auth.provider, "google");
  assert.equal(credential.auth.email, MAILBOX);
  assert.match(credential.auth.error, /refresh token.*reconnect the mailbox/i);
  assert.ok(!JSON.stringify(credential).includes(refreshToken), "never a token in the answer");

  const event = await receiver.waitForRequest((request) => request.body?.type === "credential.auth_failed", { timeoutMs: 30_000 });
  assert.equal(event.body.data.credential_id, credentialId);
  assert.equal(event.body.data.campaign_id, campaignId);
  assert.equal(event.body.data.from_email, MAILBOX);
  assert.equal(event.body.data.provider, "google");
  assert.match(event.body.data.reason, /reconnect the mailbox/);

  // Cid's step 1 is held, never sent through the revoked mailbox, and spends no attempt
  const held = await waitFor(
    async () => {
      const row = await engine.db.stepSend.findFirst({ where: { campaignId, stepPosition: 1, enrollment: { contact: { email: "cid@prospect.test" } } } });
      return row && row.state === "scheduled" && row.lastError ? row : undefined;
    },
    { what: "Cid's step 1 back on the schedule", timeoutMs: 30_000 },
  );
  assert.equal(held.attempts, 0);
  assert.equal(sentTo("cid@prospect.test").length, 0);
  assert.equal(smtp.messages.length, delivered, "nothing sent through the revoked mailbox");
  assert.equal(receiver.requests.filter((request) => request.body?.type === "credential.auth_failed").length, 1, "one event for the one credential");
});
