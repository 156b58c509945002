import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { test } from "node:test";
import { constructEvent, verifyWebhookSignature, WebhookSignatureError, type WebhookSignatureFailure } from "../src/index.js";

const SECRET = "whsec_current";
const OLD_SECRET = "whsec_previous";
const NOW = new Date("2026-11-20T09:15:00Z");
const T = Math.floor(NOW.getTime() / 1000);
const EVENT = {
  id: "5b0c6f0e-2a53-4c8e-9a55-0c1de1b0a001",
  type: "enrollment.sent",
  created_at: "2026-11-20T09:15:00.000Z",
  account_id: "5b0c6f0e-2a53-4c8e-9a55-0c1de1b0a002",
  data: {
    enrollment_id: "5b0c6f0e-2a53-4c8e-9a55-0c1de1b0a003",
    contact_id: "5b0c6f0e-2a53-4c8e-9a55-0c1de1b0a004",
    contact_email: "ana@example.com",
    campaign_id: "5b0c6f0e-2a53-4c8e-9a55-0c1de1b0a005",
    status: "sent",
    sent_at: "2026-11-20T09:15:00.000Z",
    replied_at: null,
    bounce_reason: null,
  },
};
const BODY = JSON.stringify(EVENT);

const sign = (secret: string, timestamp: number, body: string) => createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
const header = (timestamp: number, ...signatures: string[]) => [`t=${timestamp}`, ...signatures.map((v1) => `v1=${v1}`)].join(",");

function failure(run: () => unknown): WebhookSignatureFailure {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof WebhookSignatureError, `expected a WebhookSignatureError, got ${String(err)}`);
    return err.reason;
  }
  assert.fail("the delivery was accepted");
}

test("a delivery signed with the secret verifies and answers the typed event", () => {
  const event = verifyWebhookSignature({ payload: BODY, header: header(T, sign(SECRET, T, BODY)), secret: SECRET, now: NOW });
  assert.deepEqual(event, EVENT);
  assert.equal(event.type, "enrollment.sent");
  if (event.type === "enrollment.sent") assert.equal(event.data.contact_email, "ana@example.com");
});

test("the raw body may be a Buffer, as an HTTP framework hands it over", () => {
  const event = verifyWebhookSignature({ payload: Buffer.from(BODY), header: header(T, sign(SECRET, T, BODY)), secret: SECRET, now: NOW });
  assert.equal(event.id, EVENT.id);
});

test("a body changed after signing is refused", () => {
  const tampered = BODY.replace("ana@example.com", "eve@example.com");
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: tampered, header: header(T, sign(SECRET, T, BODY)), secret: SECRET, now: NOW })),
    "no_matching_signature",
  );
});

test("a body re-serialized by a JSON parser (other whitespace) is refused: verify the raw bytes", () => {
  const reformatted = JSON.stringify(EVENT, null, 2);
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: reformatted, header: header(T, sign(SECRET, T, BODY)), secret: SECRET, now: NOW })),
    "no_matching_signature",
  );
});

test("another secret's signature is refused", () => {
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: header(T, sign("whsec_other", T, BODY)), secret: SECRET, now: NOW })),
    "no_matching_signature",
  );
});

test("a timestamp changed after signing is refused", () => {
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: header(T - 10, sign(SECRET, T, BODY)), secret: SECRET, now: NOW })),
    "no_matching_signature",
  );
});

test("a delivery older than the tolerance is refused, one just inside it accepted", () => {
  const old = T - 301;
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: header(old, sign(SECRET, old, BODY)), secret: SECRET, now: NOW })),
    "timestamp_too_old",
  );
  const edge = T - 300;
  assert.equal(verifyWebhookSignature({ payload: BODY, header: header(edge, sign(SECRET, edge, BODY)), secret: SECRET, now: NOW }).id, EVENT.id);
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: header(T - 61, sign(SECRET, T - 61, BODY)), secret: SECRET, now: NOW, toleranceSeconds: 60 })),
    "timestamp_too_old",
  );
});

test("a timestamp more than 60 s ahead is refused, 60 s ahead accepted", () => {
  const ahead = T + 61;
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: header(ahead, sign(SECRET, ahead, BODY)), secret: SECRET, now: NOW })),
    "timestamp_in_future",
  );
  const skewed = T + 60;
  assert.equal(verifyWebhookSignature({ payload: BODY, header: header(skewed, sign(SECRET, skewed, BODY)), secret: SECRET, now: NOW }).id, EVENT.id);
});

test("during a secret rotation the header carries two v1 values: a receiver with either secret accepts", () => {
  const rotating = header(T, sign(SECRET, T, BODY), sign(OLD_SECRET, T, BODY));
  assert.equal(verifyWebhookSignature({ payload: BODY, header: rotating, secret: SECRET, now: NOW }).id, EVENT.id);
  assert.equal(verifyWebhookSignature({ payload: BODY, header: rotating, secret: OLD_SECRET, now: NOW }).id, EVENT.id);
  assert.equal(
    failure(() => verifyWebhookSignature({ payload: BODY, header: rotating, secret: "whsec_unrelated", now: NOW })),
    "no_matching_signature",
  );
});

test("a receiver that holds both secrets accepts a delivery signed with either", () => {
  const both = [SECRET, OLD_SECRET];
  assert.equal(verifyWebhookSignature({ payload: BODY, header: header(T, sign(OLD_SECRET, T, BODY)), secret: both, now: NOW }).id, EVENT.id);
  assert.equal(verifyWebhookSignature({ payload: BODY, header: header(T, sign(SECRET, T, BODY)), secret: both, now: NOW }).id, EVENT.id);
});

test("malformed headers are refused", () => {
  const good = sign(SECRET, T, BODY);
  const malformed: Array<string | string[] | undefined> = [
    undefined,
    "",
    `v1=${good}`,
    `t=${T}`,
    `t=abc,v1=${good}`,
    `t=${T},v1=nothex`,
    `t=${T},v1=${good.slice(0, 32)}`,
    `t=${T},t=${T + 1},v1=${good}`,
    [header(T, good), header(T, good)],
    "garbage",
  ];
  for (const value of malformed) {
    assert.equal(
      failure(() => verifyWebhookSignature({ payload: BODY, header: value, secret: SECRET, now: NOW })),
      "malformed_header",
      `header ${JSON.stringify(value)}`,
    );
  }
});

test("unknown schemes next to v1 are ignored", () => {
  const value = `t=${T},v0=${"0".repeat(64)},v1=${sign(SECRET, T, BODY)}`;
  assert.equal(verifyWebhookSignature({ payload: BODY, header: value, secret: SECRET, now: NOW }).id, EVENT.id);
});

test("constructEvent verifies against the current clock", () => {
  const now = Math.floor(Date.now() / 1000);
  assert.equal(constructEvent(BODY, header(now, sign(SECRET, now, BODY)), SECRET).id, EVENT.id);
  assert.throws(() => constructEvent(BODY, header(now, sign(SECRET, now, BODY)), "whsec_wrong"), WebhookSignatureError);
});
