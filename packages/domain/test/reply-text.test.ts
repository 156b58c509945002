import assert from "node:assert/strict";
import { test } from "node:test";
import { REPLY_TEXT_LIMIT, replyText } from "../src/inbound/reply-text.js";

test("Gmail: the answer above 'On <date>, <name> wrote:' and the > quote", () => {
  const text = [
    "Thanks Jordan, Tuesday works.",
    "",
    "Maria",
    "",
    "On Mon, Mar 3, 2025 at 10:00 AM Jordan Lee <jordan@northwind.example> wrote:",
    "",
    "> Hi Maria,",
    "> would you have 15 minutes next week?",
    ">",
    "> Jordan",
  ].join("\n");
  assert.equal(replyText(text), "Thanks Jordan, Tuesday works.\n\nMaria");
});

test("Gmail wraps a long introduction over two lines", () => {
  const text = "Sounds good.\n\nOn Mon, Mar 3, 2025 at 10:00 AM Jordan Lee from Northwind Traders <\njordan.lee@northwind.example> wrote:\n\n> Hi Maria";
  assert.equal(replyText(text), "Sounds good.");
});

test("Outlook: the From/Sent/To/Subject block and everything after it is cut", () => {
  const text = [
    "Hi Jordan,",
    "",
    "Please send me the pricing.",
    "",
    "Best regards,",
    "Maria Keller",
    "",
    "From: Jordan Lee <jordan@northwind.example>",
    "Sent: Monday, March 3, 2025 10:00 AM",
    "To: Maria Keller <maria.keller@contoso.example>",
    "Subject: Quick question",
    "",
    "Hi Maria,",
    "would you have 15 minutes next week?",
  ].join("\r\n");
  assert.equal(replyText(text), "Hi Jordan,\n\nPlease send me the pricing.\n\nBest regards,\nMaria Keller");
});

test("Outlook: -----Original Message----- and ________ separators", () => {
  assert.equal(replyText("Yes please.\n\n-----Original Message-----\nFrom: Jordan\nHi"), "Yes please.");
  assert.equal(replyText("Yes please.\n________________________________\nFrom: Jordan Lee\nSent: Monday\nHi"), "Yes please.");
  assert.equal(replyText("Ja gerne.\n\n-----Ursprüngliche Nachricht-----\nVon: Jordan\nHallo"), "Ja gerne.");
});

test("Apple Mail: 'On <date>, at <time>, <name> wrote:' followed by > lines", () => {
  const text = "Let's talk Thursday.\n\nSent from my iPhone\n\n> On 3 Mar 2025, at 10:00, Jordan Lee <jordan@northwind.example> wrote:\n> \n> Hi Maria";
  assert.equal(replyText(text), "Let's talk Thursday.\n\nSent from my iPhone");
  const unquotedIntro = "Let's talk Thursday.\n\nOn 3 Mar 2025, at 10:00, Jordan Lee <jordan@northwind.example> wrote:\n\n> Hi Maria";
  assert.equal(replyText(unquotedIntro), "Let's talk Thursday.");
});

test("French, German and Spanish introductions", () => {
  assert.equal(replyText("Avec plaisir.\n\nLe lun. 3 mars 2025 à 10:00, Jordan Lee <jordan@northwind.example> a écrit :\n> Bonjour Maria"), "Avec plaisir.");
  assert.equal(replyText("Gerne.\n\nAm 03.03.2025 um 10:00 schrieb Jordan Lee <jordan@northwind.example>:\n> Hallo Maria"), "Gerne.");
  assert.equal(replyText("Claro.\n\nEl lun, 3 mar 2025 a las 10:00, Jordan Lee (<jordan@northwind.example>) escribió:\n> Hola Maria"), "Claro.");
});

test("an introduction followed by an unquoted copy cuts the rest", () => {
  assert.equal(replyText("Interested.\n\nOn Monday, Jordan Lee wrote:\nHi Maria, would you have time?"), "Interested.");
});

test("answers written between quoted lines are kept", () => {
  const text = "On Mon, Jordan wrote:\n> Would Tuesday work?\nYes, Tuesday is fine.\n> And who else joins?\nMy colleague Sam.";
  assert.equal(replyText(text), "Yes, Tuesday is fine.\nMy colleague Sam.");
});

test("a reply without a quote is kept whole (trailing spaces dropped); a line that only starts like an introduction stays", () => {
  assert.equal(replyText("Interested. Call me at 555-0100.\n\n-- \nMaria"), "Interested. Call me at 555-0100.\n\n--\nMaria");
  assert.equal(replyText("On second thought, yes.\nLet's do it."), "On second thought, yes.\nLet's do it.");
  assert.equal(replyText(""), "");
});

test("the kept text is bounded and the work stays linear on hostile input", () => {
  const long = "x".repeat(64 * 1024);
  assert.equal(replyText(long).length, REPLY_TEXT_LIMIT);
  const emoji = "\u{1F600}".repeat(REPLY_TEXT_LIMIT);
  const clipped = replyText(emoji);
  assert.ok(clipped.length <= REPLY_TEXT_LIMIT);
  assert.ok(!/[\uD800-\uDBFF]$/.test(clipped), "no half surrogate pair at the end");
  // 64 KiB of lines that each look like the start of an introduction or a header block
  const hostile = [
    ("On " + "a ".repeat(30000)).slice(0, 64 * 1024),
    Array.from({ length: 8000 }, () => "On x").join("\n"),
    Array.from({ length: 8000 }, () => "From: x").join("\n"),
    Array.from({ length: 13000 }, () => ">\n").join(""),
  ];
  for (const text of hostile) {
    const started = performance.now();
    replyText(text);
    assert.ok(performance.now() - started < 500, `took ${performance.now() - started} ms`);
  }
});
