import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyInbound, isAutoReply, isUnsubscribeRequest, normalizeMessageId, readInbound, type InboundFacts } from "../src/inbound/index.js";

const facts = (extra: Partial<InboundFacts> = {}): InboundFacts => ({
  messageId: null,
  inReplyTo: [],
  references: [],
  from: "maria.keller@contoso.example",
  fromName: "Maria Keller",
  to: ["jordan@northwind.example"],
  date: null,
  subject: "Re: Quick question",
  text: "Sounds good, let's talk.",
  headers: {},
  ...extra,
});
const subject = (value: string) => facts({ subject: value });
const header = (name: string, value: string) => facts({ headers: { [name]: [value] } });

test("out-of-office subjects in en, de, fr, es, it, nl and pt are auto-replies", () => {
  const subjects = [
    "Out of Office: Quick question",
    "Out of the office until Monday",
    "OUT OF OFFICE",
    "Automatic reply: Quick question",
    "Auto: Quick question",
    "Autoreply: Quick question",
    "Auto-Reply: Quick question",
    "[EXT] Automatic reply: Quick question",
    "Abwesenheitsnotiz: Kurze Frage",
    "Automatische Antwort: Kurze Frage",
    "Nicht im Büro: Kurze Frage",
    "Réponse automatique : Une question",
    "Reponse automatique: Une question",
    "Absence du bureau",
    "Absent du bureau jusqu'au 3 juin",
    "Respuesta automática: Una pregunta",
    "Fuera de la oficina: Una pregunta",
    "Risposta automatica: Una domanda",
    "Fuori sede: Una domanda",
    "Fuori ufficio",
    "Automatisch antwoord: Korte vraag",
    "Afwezig: Korte vraag",
    "Niet aanwezig",
    "Resposta automática: Uma pergunta",
    "Ausente do escritório",
    "Fora do escritório: Uma pergunta",
  ];
  for (const value of subjects) assert.deepEqual(isAutoReply(subject(value)), { auto: true, why: `subject: ${value}` }, value);
});

test("replies whose subject mentions an office, an absence or an automatic reply further on are not auto-replies", () => {
  const subjects = [
    "Re: Out of office hours support",
    "RE: Automatic reply handling in your product",
    "AW: Abwesenheitsnotiz einrichten?",
    "Re: Office space for your team",
    "Office move next week",
    "Outofoffice",
    "Automatically generated reports",
    "Autobahn tolls",
    "Absentee rates in support teams",
    "Afwezigheidsregistratie software",
    "Re: Quick question",
    "",
  ];
  for (const value of subjects) assert.deepEqual(isAutoReply(subject(value)), { auto: false, why: null }, value);
});

test("header signs of an automatic message", () => {
  const auto: [string, string][] = [
    ["auto-submitted", "auto-replied"],
    ["auto-submitted", "auto-generated"],
    ["auto-submitted", 'auto-notified; owner-email="x@example.org"'],
    ["x-autoreply", "yes"],
    ["x-autorespond", "Vacation"],
    ["precedence", "bulk"],
    ["precedence", "junk"],
    ["precedence", "list"],
    ["precedence", "auto_reply"],
    ["x-auto-response-suppress", "All"],
    ["x-auto-response-suppress", "OOF, AutoReply"],
    ["return-path", "<>"],
    ["return-path", ""],
    ["content-type", 'multipart/report; report-type=disposition-notification; boundary="x"'],
    ["content-type", 'multipart/report; report-type=feedback-report; boundary="x"'],
  ];
  for (const [name, value] of auto) assert.equal(isAutoReply(header(name, value)).auto, true, `${name}: ${value}`);
  const human: [string, string][] = [
    ["auto-submitted", "no"],
    ["auto-submitted", "No"],
    ["x-autoreply", "no"],
    ["precedence", "first-class"],
    ["x-auto-response-suppress", "None"],
    ["return-path", "<maria.keller@contoso.example>"],
    ["content-type", 'multipart/mixed; boundary="x"'],
  ];
  for (const [name, value] of human) assert.equal(isAutoReply(header(name, value)).auto, false, `${name}: ${value}`);
});

test("mailer-daemon and postmaster senders are automatic, other senders are not", () => {
  assert.deepEqual(isAutoReply(facts({ from: "mailer-daemon@mx.example.org" })), { auto: true, why: "from: mailer-daemon@mx.example.org" });
  assert.equal(isAutoReply(facts({ from: "postmaster@example.org" })).auto, true);
  assert.equal(isAutoReply(facts({ from: "postmaster.general@example.org" })).auto, false);
  assert.equal(isAutoReply(facts({ from: null })).auto, false);
});

test("unsubscribe requests in the subject", () => {
  const subjects = [
    "unsubscribe",
    "Unsubscribe",
    "UNSUBSCRIBE",
    "  unsubscribe  ",
    "Re: Unsubscribe",
    "RE: unsubscribe me",
    "Please unsubscribe me.",
    "unsubscribe me from this list",
    "Remove me from your mailing list!",
    "STOP",
    "Opt out",
    "Bitte abmelden",
    "Se désabonner",
    "Darme de baja",
    "Uitschrijven",
    "[EXT] unsubscribe",
  ];
  for (const value of subjects) assert.equal(isUnsubscribeRequest({ subject: value, text: "" }), true, value);
  const not = ["Re: Quick question", "Unsubscribe link not working", "How do I unsubscribe my team from the trial?", "Stop by our booth", "Remove the second paragraph", ""];
  for (const value of not) assert.equal(isUnsubscribeRequest({ subject: value, text: "" }), false, value);
});

test("unsubscribe requests as the first line of the body, with nothing substantive after them", () => {
  const yes = [
    "unsubscribe",
    "Unsubscribe\n",
    "UNSUBSCRIBE me",
    "please unsubscribe\n\nThanks,\nAnna\nAnna Schmidt | Head of Support | Example Corp",
    "Unsubscribe.\n\nSent from my iPhone\n\n> On 3 Jun 2025 Jordan wrote:\n> Hi, long text...",
    "\n\n  Remove me  \n\nOn Tue, Jun 3, 2025 at 10:00 AM Jordan Reyes <jordan@northwind.example>\nwrote:\n> Hi there",
    "unsubscribe\n\n-- \nAnna Schmidt\nExample Corp\nPhone +49 30 1234567\nwww.example.org\nSome long legal disclaimer that goes on and on and on and on and on and on and on and on and on and on.",
    "Please remove me from your list\n\nFrom: Jordan Reyes <jordan@northwind.example>\nSent: Tuesday, June 3, 2025 4:05 PM\nTo: Anna\nSubject: Quick question",
  ];
  for (const text of yes) assert.equal(isUnsubscribeRequest({ subject: "Re: Quick question", text }), true, text);
  const no = [
    "",
    "Thanks, interested!\n\nOn Tue, Jun 3, 2025 Jordan wrote:\n> Hi\n> --\n> Unsubscribe: https://t.northwind.example/u/abc",
    "> unsubscribe\n> Hi",
    "I'd rather not unsubscribe yet, send me the pricing.",
    "Unsubscribe?\n\nNot yet. Before I decide, could you tell me how your pricing works for a team of 40 agents across two time zones, and whether you integrate with our ticketing system?",
    "Unsubscribe link at the bottom does not work, can you fix it?",
  ];
  for (const text of no) assert.equal(isUnsubscribeRequest({ subject: "Re: Quick question", text }), false, text);
});

test("a subject-line unsubscribe request wins over automatic markers, a body-line one does not", () => {
  const auto = { "auto-submitted": ["auto-generated"] };
  const base = { dsn: null, ...facts({ headers: auto }) };
  assert.deepEqual(classifyInbound({ ...base, subject: "unsubscribe", text: "This message was automatically generated." }), { kind: "unsubscribe" });
  assert.deepEqual(classifyInbound({ ...base, subject: "Automatic reply: Quick question", text: "Unsubscribe" }), { kind: "auto_reply", why: "auto-submitted: auto-generated" });
});

test("normalizeMessageId", () => {
  assert.equal(normalizeMessageId("<0B9F6D2E-5C1A@Northwind.example>"), "0b9f6d2e-5c1a@northwind.example");
  assert.equal(normalizeMessageId("  abc@x.example "), "abc@x.example");
  assert.equal(normalizeMessageId("<>"), null);
  assert.equal(normalizeMessageId(""), null);
});

const report = (recipientGroups: string[], extra = "") =>
  [
    "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)",
    "To: jordan@northwind.example",
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="R"',
    "",
    "--R",
    "Content-Type: text/plain",
    "",
    "Delivery failed.",
    "",
    "--R",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "",
    recipientGroups.join("\n\n"),
    "",
    "--R",
    "Content-Type: text/rfc822-headers",
    "",
    "From: jordan@northwind.example",
    "Message-ID: <ABC-1@northwind.example>",
    "",
    "--R--",
    extra,
  ].join("\r\n");

test("RFC 3464: of several recipients the failed one is reported", async () => {
  const message = await readInbound(
    report([
      "Final-Recipient: rfc822; ok@example.net\nAction: relayed\nStatus: 2.0.0",
      "Final-Recipient: rfc822; gone@example.net\nAction: failed\nStatus: 5.2.1 (mailbox disabled)\nDiagnostic-Code: smtp; 550 5.2.1 Mailbox disabled",
    ]),
  );
  assert.deepEqual(message.dsn, { permanent: true, status: "5.2.1", diagnostic: "550 5.2.1 Mailbox disabled", recipient: "gone@example.net", originalMessageId: "abc-1@northwind.example" });
  assert.equal(classifyInbound(message).kind, "bounce");
});

test("RFC 3464: delivered and relayed reports are not bounces; failed without a status is; a status from the diagnostic", async () => {
  const delivered = await readInbound(report(["Final-Recipient: rfc822; ok@example.net\nAction: delivered\nStatus: 2.0.0"]));
  assert.equal(delivered.dsn?.permanent, false);
  assert.equal(classifyInbound(delivered).kind, "auto_reply");

  const noStatus = await readInbound(report(["Final-Recipient: rfc822; gone@example.net\nAction: failed"]));
  assert.equal(noStatus.dsn?.permanent, true);
  assert.equal(noStatus.dsn?.status, null);

  const fromDiagnostic = await readInbound(report(["Final-Recipient: rfc822; gone@example.net\nAction: failed\nDiagnostic-Code: smtp; 554 5.7.1 Rejected by policy"]));
  assert.deepEqual([fromDiagnostic.dsn?.permanent, fromDiagnostic.dsn?.status, fromDiagnostic.dsn?.diagnostic], [true, "5.7.1", "554 5.7.1 Rejected by policy"]);

  const delayedWith5xx = await readInbound(report(["Final-Recipient: rfc822; slow@example.net\nAction: delayed\nStatus: 4.2.2"]));
  assert.equal(delayedWith5xx.dsn?.permanent, false);
});

test("a person writing about a bounce is not a failure notice", async () => {
  const raw = [
    "From: Maria Keller <maria.keller@contoso.example>",
    "To: jordan@northwind.example",
    "Subject: Undeliverable: your last email",
    "Message-ID: <x1@contoso.example>",
    "",
    "Hi Jordan, our server said 550 5.1.1 for my colleague's old address.",
    "Message-ID: <0b9f6d2e@northwind.example>",
  ].join("\r\n");
  const message = await readInbound(raw);
  assert.equal(message.dsn, null);
  assert.deepEqual(classifyInbound(message), { kind: "reply" });
});

test("a mailer-daemon message with neither a status code nor the original Message-ID is no report, but still automatic", async () => {
  const raw = ["From: MAILER-DAEMON@mx.example.net", "To: jordan@northwind.example", "Subject: Mail system notice", "", "Your mailbox is almost full."].join("\r\n");
  const message = await readInbound(raw);
  assert.equal(message.dsn, null);
  assert.deepEqual(classifyInbound(message), { kind: "auto_reply", why: "from: mailer-daemon@mx.example.net" });
});
