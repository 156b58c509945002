import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { classifyInbound, readInbound, type DsnReport, type InboundClassification } from "../src/inbound/index.js";

const fixtures = new URL("./fixtures/inbound/", import.meta.url);
const raw = (file: string) => readFileSync(new URL(file, fixtures));

type Expected = { kind: "reply" | "unsubscribe" } | { kind: "auto_reply"; why: RegExp; dsn?: DsnReport } | { kind: "bounce"; dsn: DsnReport };

const samples: Record<string, Expected> = {
  // people answering, in the common clients
  "reply-gmail.eml": { kind: "reply" },
  "reply-outlook.eml": { kind: "reply" },
  "reply-apple-mail.eml": { kind: "reply" },
  "reply-stripped-in-reply-to.eml": { kind: "reply" },
  "reply-html-only.eml": { kind: "reply" },
  "reply-office-subject.eml": { kind: "reply" },
  "reply-mentions-unsubscribe.eml": { kind: "reply" },
  "reply-german-outlook.eml": { kind: "reply" },
  "reply-auto-submitted-no.eml": { kind: "reply" },
  "not-unsubscribe-substantive.eml": { kind: "reply" },
  "fwd-ndr-by-person.eml": { kind: "reply" },

  // machines answering
  "ooo-exchange-online.eml": { kind: "auto_reply", why: /^auto-submitted: auto-generated$/ },
  "ooo-exchange-suppress-only.eml": { kind: "auto_reply", why: /^x-auto-response-suppress: All$/ },
  "ooo-gmail-vacation.eml": { kind: "auto_reply", why: /^auto-submitted: auto-replied$/ },
  "ooo-de-abwesenheitsnotiz.eml": { kind: "auto_reply", why: /^subject: Abwesenheitsnotiz:/ },
  "ooo-de-automatische-antwort.eml": { kind: "auto_reply", why: /^subject: Automatische Antwort:/ },
  "ooo-fr-reponse-automatique.eml": { kind: "auto_reply", why: /^subject: Réponse automatique/ },
  "ooo-fr-absence.eml": { kind: "auto_reply", why: /^subject: \[EXTERNE\] Absence du bureau/ },
  "ooo-es-respuesta-automatica.eml": { kind: "auto_reply", why: /^subject: Respuesta automática:/ },
  "ooo-es-fuera-de-la-oficina.eml": { kind: "auto_reply", why: /^subject: Fuera de la oficina$/ },
  "ooo-it-risposta-automatica.eml": { kind: "auto_reply", why: /^subject: Risposta automatica:/ },
  "ooo-it-fuori-sede.eml": { kind: "auto_reply", why: /^subject: Fuori sede:/ },
  "ooo-nl-automatisch-antwoord.eml": { kind: "auto_reply", why: /^subject: Automatisch antwoord:/ },
  "ooo-nl-afwezig.eml": { kind: "auto_reply", why: /^subject: Afwezig:/ },
  "ooo-pt-resposta-automatica.eml": { kind: "auto_reply", why: /^subject: Resposta automática:/ },
  "ooo-pt-ausente.eml": { kind: "auto_reply", why: /^subject: Ausente do escritório/ },
  "ooo-lotus-auto.eml": { kind: "auto_reply", why: /^subject: Auto: / },
  "list-mail.eml": { kind: "auto_reply", why: /^precedence: list$/ },
  "helpdesk-x-autorespond.eml": { kind: "auto_reply", why: /^x-autorespond: / },
  "empty-return-path.eml": { kind: "auto_reply", why: /^return-path: <>$/ },
  "read-receipt.eml": { kind: "auto_reply", why: /^report-type: disposition-notification$/ },

  // delivery status notifications
  "dsn-postfix-user-unknown.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.1",
      diagnostic: "550 5.1.1 <nobody@contoso.example>: Recipient address rejected: User unknown in virtual mailbox table",
      recipient: "nobody@contoso.example",
      originalMessageId: "0a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9@northwind.example",
    },
  },
  "dsn-postfix-delayed.eml": {
    kind: "auto_reply",
    why: /^delivery status 4\.4\.7/,
    dsn: {
      permanent: false,
      status: "4.4.7",
      diagnostic: "connect to mx.slowhost.example[203.0.113.200]:25: Connection timed out",
      recipient: "ops@slowhost.example",
      originalMessageId: "1b2c3d4e-5f60-4718-a9b0-c1d2e3f4a5b6@northwind.example",
    },
  },
  "dsn-postfix-expired.eml": {
    kind: "auto_reply",
    why: /^delivery status 4\.4\.1/,
    dsn: {
      permanent: false,
      status: "4.4.1",
      diagnostic: "connect to mx.slowhost.example[203.0.113.200]:25: Connection timed out",
      recipient: "ops@slowhost.example",
      originalMessageId: "1b2c3d4e-5f60-4718-a9b0-c1d2e3f4a5b6@northwind.example",
    },
  },
  "dsn-gmail.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.1",
      diagnostic:
        "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. For more information, go to the help centre of your provider. a640c23a62f3a-ae0b1c2d3e4si5678901.3 - gsmtp",
      recipient: "no.such.user@woodgrove.example",
      originalMessageId: "2c3d4e5f-6071-4829-b0c1-d2e3f4a5b6c7@northwind.example",
    },
  },
  "dsn-office365.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.10",
      diagnostic: "550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup",
      recipient: "former.employee@fabrikam.example",
      originalMessageId: "3d4e5f60-7182-4930-c1d2-e3f4a5b6c7d8@northwind.example",
    },
  },
  "ndr-exchange-legacy.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.1",
      diagnostic: "550 5.1.1 RESOLVER.ADR.RecipNotFound; not found",
      recipient: "k.olsen@margie.example",
      originalMessageId: "4e5f6071-8293-4a41-d2e3-f4a5b6c7d8e9@northwind.example",
    },
  },
  "bounce-qmail.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.1",
      diagnostic: "550 5.1.1 <old.account@adatum.example>: Recipient address rejected: User unknown in local recipient table",
      recipient: "old.account@adatum.example",
      originalMessageId: "5f607182-93a4-4b52-e3f4-a5b6c7d8e9f0@northwind.example",
    },
  },
  "bounce-exim.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: "5.1.1",
      diagnostic: "550 5.1.1 <gone@lucerne.example>: Recipient address rejected: User unknown",
      recipient: "gone@lucerne.example",
      originalMessageId: "60718293-a4b5-4c63-f4a5-b6c7d8e9f0a1@northwind.example",
    },
  },
  "bounce-exim-delay-warning.eml": {
    kind: "auto_reply",
    why: /^delivery status 4\.7\.1/,
    dsn: {
      permanent: false,
      status: "4.7.1",
      diagnostic: "451 4.7.1 <busy@lucerne.example>: Recipient address rejected: Greylisted, try again later",
      recipient: "busy@lucerne.example",
      originalMessageId: null,
    },
  },
  "bounce-no-code.eml": {
    kind: "bounce",
    dsn: {
      permanent: true,
      status: null,
      diagnostic: "(reason: mailbox disabled)",
      recipient: "left.company@graphic.example",
      originalMessageId: "718293a4-b5c6-4d74-a5b6-c7d8e9f0a1b2@northwind.example",
    },
  },

  // unsubscribe requests by mail
  "unsubscribe-mailto.eml": { kind: "unsubscribe" },
  "unsubscribe-client-generated.eml": { kind: "unsubscribe" },
  "unsubscribe-body-iphone.eml": { kind: "unsubscribe" },
  "unsubscribe-please-gmail.eml": { kind: "unsubscribe" },
  "unsubscribe-remove-me-outlook.eml": { kind: "unsubscribe" },
  "unsubscribe-german.eml": { kind: "unsubscribe" },
};

function assertClassified(file: string, got: InboundClassification, dsn: DsnReport | null, expected: Expected) {
  assert.equal(got.kind, expected.kind, `${file}: ${JSON.stringify(got)}`);
  if (expected.kind === "bounce") {
    assert.equal(got.kind === "bounce" && got.dsn, dsn, `${file}: the bounce carries the report`);
    assert.deepEqual(dsn, expected.dsn, file);
  } else if (expected.kind === "auto_reply") {
    assert.match(got.kind === "auto_reply" ? got.why : "", expected.why, file);
    assert.deepEqual(dsn, expected.dsn ?? null, file);
  } else {
    assert.equal(dsn, null, `${file}: no delivery report`);
  }
}

test("every fixture has an expectation and every expectation a fixture", () => {
  const files = readdirSync(fixtures)
    .filter((name) => name.endsWith(".eml"))
    .sort();
  assert.deepEqual(files, Object.keys(samples).sort());
  assert.ok(files.length >= 30);
});

for (const [file, expected] of Object.entries(samples)) {
  test(`${file} is classified as ${expected.kind}`, async () => {
    const message = await readInbound(raw(file));
    assertClassified(file, classifyInbound(message), message.dsn, expected);
  });
}

test("the classification is the same with CRLF line ends as with LF", async () => {
  for (const [file, expected] of Object.entries(samples)) {
    const crlf = Buffer.from(raw(file).toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");
    const message = await readInbound(crlf);
    assertClassified(`${file} (CRLF)`, classifyInbound(message), message.dsn, expected);
  }
});

test("facts of a Gmail reply: ids normalised, addresses lower-cased, the plain text part", async () => {
  const facts = await readInbound(raw("reply-gmail.eml"));
  assert.equal(facts.messageId, "cajx7q2dn8v1+zkqpw3m0ab9cytr4fe6uh5sl2gk1jv0wxyz_aq@mail.gmail.com");
  assert.deepEqual(facts.inReplyTo, ["0b9f6d2e-5c1a-4f7e-9a3b-1c2d3e4f5a6b@northwind.example"]);
  assert.deepEqual(facts.references, ["0b9f6d2e-5c1a-4f7e-9a3b-1c2d3e4f5a6b@northwind.example"]);
  assert.equal(facts.from, "maria.keller@contoso.example");
  assert.equal(facts.fromName, "Maria Keller");
  assert.deepEqual(facts.to, ["jordan@northwind.example"]);
  assert.equal(facts.subject, "Re: Quick question about your hiring plans");
  assert.equal(facts.date?.toISOString(), "2025-06-03T14:42:05.000Z");
  assert.match(facts.text, /^Hi Jordan,\n\nThanks for reaching out\. We are indeed growing the support team this quarter\./);
  assert.doesNotMatch(facts.text, /<div|\r/);
  assert.deepEqual(facts.headers["x-gm-features"], ["AX0GCFsk1234567890abcdefghijklmnopqrstuvwxyz"]);
  assert.equal(facts.headers["dkim-signature"]?.[0]?.includes("\n"), false, "folded header values are unfolded");
});

test("facts of an Apple Mail reply: folded References, mixed-case addresses, Cc among the recipients", async () => {
  const facts = await readInbound(raw("reply-apple-mail.eml"));
  assert.equal(facts.messageId, "9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d@tailspin.example");
  assert.deepEqual(facts.inReplyTo, ["c4a1e2f3-5b6c-4d7e-8f9a-1b2c3d4e5f6a@northwind.example"]);
  assert.deepEqual(facts.references, ["a9e8d7c6-b5a4-4392-8170-6f5e4d3c2b1a@northwind.example", "c4a1e2f3-5b6c-4d7e-8f9a-1b2c3d4e5f6a@northwind.example"]);
  assert.deepEqual(facts.to, ["jordan@northwind.example", "ops@tailspin.example"]);
});

test("a reply without In-Reply-To or References still has its sender for matching", async () => {
  const facts = await readInbound(raw("reply-stripped-in-reply-to.eml"));
  assert.deepEqual(facts.inReplyTo, []);
  assert.deepEqual(facts.references, []);
  assert.equal(facts.from, "lena.novak@adatum.example");
  assert.deepEqual(facts.to, ["jordan@northwind.example"], "Delivered-To adds nothing new here");
});

test("an HTML-only reply gets its text from the HTML", async () => {
  const facts = await readInbound(raw("reply-html-only.eml"));
  assert.match(facts.text, /Hi Jordan,\n\nWe already work with another vendor, but I\u2019d be happy to compare\. Send me a proposal\./);
  assert.doesNotMatch(facts.text, /<p>|&rsquo;/);
});

test("encoded subjects are decoded (quoted-printable and base64, utf-8 and latin-1)", async () => {
  assert.equal((await readInbound(raw("ooo-fr-reponse-automatique.eml"))).subject, "Réponse automatique\u00a0: Une question rapide".replace(/\s+/g, " "));
  assert.equal((await readInbound(raw("ooo-es-respuesta-automatica.eml"))).subject, "Respuesta automática: Una pregunta rápida");
  assert.equal((await readInbound(raw("ooo-pt-resposta-automatica.eml"))).subject, "Resposta automática: Uma pergunta rápida");
});

test("the text is bounded", async () => {
  const body = "word ".repeat(40_000);
  const message = await readInbound(`From: a@example.org\r\nTo: b@example.org\r\nSubject: long\r\n\r\n${body}`);
  assert.equal(message.text.length, 64 * 1024);
});

test("a message with no header fields of note and garbage for a body is a reply candidate with empty facts", async () => {
  const message = await readInbound(Buffer.from("this is not really a message"));
  assert.equal(message.messageId, null);
  assert.equal(message.from, null);
  assert.deepEqual(message.to, []);
  assert.deepEqual(classifyInbound(message), { kind: "reply" });
});
