import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { REPLY_CATEGORIES } from "@outreach/core";
import { categorizeReply, findReturnDate } from "../src/inbound/index.js";
import { CATEGORY_SCORE_FLOOR, evaluateCategories, readCorpus } from "../src/inbound/evaluate-categories.js";

const corpus = readCorpus(join(import.meta.dirname, "fixtures/reply-corpus.jsonl"));
const person = (text: string, subject = "Re: Quick question") => categorizeReply({ subject, text, autoReply: false });
const day = (iso: string) => new Date(`${iso}T09:00:00Z`);
const returnOf = (text: string, receivedAt = "2026-11-26", subject = "") => {
  const found = findReturnDate({ subject, text }, day(receivedAt));
  return found && `${found.year}-${String(found.month).padStart(2, "0")}-${String(found.day).padStart(2, "0")}`;
};

test("the corpus holds at least 20 examples per category, and 20 out-of-office and unsubscribe requests in each of the 7 languages", () => {
  for (const category of REPLY_CATEGORIES) assert.ok(corpus.filter((e) => e.category === category).length >= 20, category);
  for (const category of ["out_of_office", "unsubscribe_request"]) {
    for (const lang of ["en", "de", "fr", "es", "pt", "it", "nl"]) {
      assert.ok(corpus.filter((e) => e.category === category && e.lang === lang).length >= 20, `${category} ${lang}`);
    }
  }
});

test("per category, precision and recall on the corpus are at least 0.9", () => {
  const evaluation = evaluateCategories(corpus);
  for (const category of REPLY_CATEGORIES) {
    const score = evaluation.perCategory[category];
    assert.ok(score.precision >= CATEGORY_SCORE_FLOOR, `${category} precision ${score.precision}: ${JSON.stringify(evaluation.misclassified.filter((m) => m.got === category))}`);
    assert.ok(score.recall >= CATEGORY_SCORE_FLOOR, `${category} recall ${score.recall}: ${JSON.stringify(evaluation.misclassified.filter((m) => m.expected === category))}`);
  }
});

test("the return dates of the corpus's out-of-office examples are read, and none is made up where there is none", () => {
  const evaluation = evaluateCategories(corpus);
  assert.ok(evaluation.returnDate.total >= 100);
  assert.deepEqual(evaluation.wrongReturnDates, []);
});

test("the evaluation counts what it is given: a wrong rule shows as lost precision and recall", () => {
  const mislabelled = corpus.slice(0, 10).map((e) => ({ ...e, category: "interested" as const }));
  const evaluation = evaluateCategories(mislabelled);
  assert.equal(evaluation.perCategory.interested.recall, 0);
  assert.equal(evaluation.perCategory.out_of_office.precision, 0);
  assert.equal(evaluation.misclassified.length, 10);
});

test("negation: 'not interested' is never interested", () => {
  for (const text of [
    "Not interested.",
    "I'm not interested, thanks",
    "We are not really interested in a call.",
    "Nicht interessiert.",
    "No estamos interesados.",
    "Not interested in learning more.",
  ]) {
    assert.equal(person(text), "not_interested", text);
  }
  assert.equal(person("I'm interested, let's talk."), "interested");
});

test("interest that hangs on a condition, or yes and no together, is other", () => {
  assert.equal(person("I'd be interested if it ran on-prem."), "other");
  assert.equal(person("Not interested right now, but send me the pricing anyway."), "other");
  assert.equal(person("I'm not the right person, but I'm interested personally - can we chat?"), "other");
  assert.equal(person(""), "other");
  assert.equal(person("Thanks."), "other");
});

test("precedence: an unsubscribe request wins over a no and over a referral; a referral wins over a no", () => {
  assert.equal(person("Not interested. Please take me off your list."), "unsubscribe_request");
  assert.equal(person("Please don't contact me again."), "unsubscribe_request");
  assert.equal(person("I'm not the right person, and please remove me from this list."), "unsubscribe_request");
  assert.equal(person("Not interested personally, but you should talk to my colleague Raj."), "wrong_person");
  assert.equal(person("Not right now, try again in Q3."), "not_interested");
});

test("an unsubscribe word inside a substantive reply is not a request", () => {
  assert.equal(person("Sounds good. Your unsubscribe link is broken by the way. Let's talk Tuesday."), "interested");
  assert.equal(person("We removed that tool from our stack last year. No thanks."), "not_interested");
});

test("out-of-office: automatic ones by subject or text, other automatic messages are other, a person's away note too", () => {
  assert.equal(categorizeReply({ subject: "Automatic reply: Quick question", text: "I am out of the office until 3 December.", autoReply: true }), "out_of_office");
  assert.equal(categorizeReply({ subject: "Abwesenheitsnotiz", text: "", autoReply: true }), "out_of_office");
  assert.equal(categorizeReply({ subject: "Automatic reply: Quick question", text: "Your ticket #123 has been received.", autoReply: true }), "other");
  assert.equal(person("I'm out of the office this week, back on 3 December."), "out_of_office");
  // away, but saying yes: the yes counts
  assert.equal(person("I'm on holiday until the 10th but this sounds great - let's set up a call when I'm back."), "interested");
  // a colleague named for urgent matters in an away note is not a referral
  assert.equal(person("I am out of the office. For urgent matters please contact my colleague Jane instead."), "out_of_office");
});

test("only the person's own lines count: a request quoted below an answer is not theirs", () => {
  const text = "Sounds good, let's talk Tuesday.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Jordan Lee <jordan@northwind.example> wrote:\n> Not interested? Reply 'remove me' and I'll stop.";
  assert.equal(person(text), "interested");
});

test("return dates: German, rollover, until, ranges", () => {
  assert.equal(returnOf("Ich bin zurück am 03.12."), "2026-12-03");
  assert.equal(returnOf("Ich bin ab dem 3. Dezember wieder im Büro."), "2026-12-03");
  assert.equal(returnOf("Back on 2 January", "2026-12-20"), "2027-01-02");
  assert.equal(returnOf("de retour le 3 décembre"), "2026-12-03");
  assert.equal(returnOf("I am out of the office until 4 December."), "2026-12-05");
  assert.equal(returnOf("Out from 24.12. until 02.01."), "2027-01-03");
  assert.equal(returnOf("Out until Friday 4 December, returning on Monday 7 December."), "2026-12-07");
  assert.equal(returnOf("I will be back on 12/03"), "2027-03-12");
  assert.equal(returnOf("I will be back on 12/25"), "2026-12-25");
  assert.equal(returnOf("", "2026-11-26", "Abwesend bis 3. Dezember"), "2026-12-04");
});

test("return dates: impossible, past, too far ahead or missing give null; an unrelated quoted date is not taken", () => {
  assert.equal(returnOf("back on 31 February"), null);
  assert.equal(returnOf("zurück am 31.11."), null);
  assert.equal(returnOf("back on 3 December 2025"), null);
  assert.equal(returnOf("back on 3 December 2028"), null);
  assert.equal(returnOf("I am out of the office and will reply when I return."), null);
  assert.equal(returnOf("I'll be back on Monday.\n\nOn 20 Nov, Jordan wrote:\n> can we meet on 5 January?"), null);
  assert.equal(returnOf("I'm out until 4 December.\n\nOn 20 Nov, Jordan wrote:\n> can we meet on 5 January?"), "2026-12-05");
  // no return phrase and one date: that date
  assert.equal(returnOf("Urlaub. 10.12."), "2026-12-10");
});

test("a negated wish or a negated yes is not interest", () => {
  assert.equal(person("I would not like to see a demo, thanks."), "not_interested");
  assert.equal(person("Let's not schedule anything for now."), "not_interested");
  assert.equal(person("Of course not."), "other");
  assert.equal(person("This isn't for us."), "not_interested");
  assert.equal(person("Yes, let's find a time next week."), "interested");
});
