import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { jobId, TypedQueue } from "@outreach/core";
import { startAppProcess, startModelStandIn, waitFor, type AppProcess, type ModelStandIn, type ModelStandInRequest } from "@outreach/testing";
import { mail, startPollerFixture, waitUntilWatched, type PollerFixture, type SeededInbox } from "./helpers.js";

// The model's part end to end: replies put into a real IMAP inbox (Dovecot
// where installed), the real poller in-process with REPLY_CLASSIFIER_URL on
// a local stand-in of the chat-completions endpoint.

let fixture: PollerFixture;
let standIn: ModelStandIn;
let queue: TypedQueue<"categorize-reply">;
let pollerProcess: AppProcess | undefined;

before(async () => {
  standIn = await startModelStandIn();
  fixture = await startPollerFixture({
    redis: true,
    startPoller: true,
    env: { REPLY_CLASSIFIER_URL: standIn.url, REPLY_CLASSIFIER_API_KEY: standIn.apiKey, REPLY_CLASSIFIER_MODEL: "stand-in", REPLY_CLASSIFIER_TIMEOUT_MS: "2000" },
  });
  queue = new TypedQueue("categorize-reply", fixture.config, fixture.redis);
});
after(() => fixture?.stop(() => Promise.all([queue?.close(), pollerProcess?.stop("SIGKILL"), standIn?.close()])));

/** A person's reply to step 1 of the seeded enrollment, threaded. */
const replyWith = (seeded: SeededInbox, text: string) => {
  const enrollment = seeded.enrollments[0]!;
  return mail({ From: `Reader <${enrollment.contactEmail}>`, To: seeded.inbox, Subject: "Re: Hello", "In-Reply-To": enrollment.messageId, References: enrollment.messageId }, `${text}\r\n\r\n> Hi`);
};

const askedAbout = (text: string) => (request: ModelStandInRequest) => String(request.body?.messages?.at(-1)?.content ?? "").includes(text);

async function storedReply(seeded: SeededInbox, what: string, ready: (row: { category: string | null; categorySource: string | null }) => boolean) {
  return waitFor(
    async () => {
      const row = await fixture.db.inboundMessage.findFirst({ where: { credentialId: seeded.credentialId, kind: "reply" }, orderBy: { uid: "desc" } });
      return row && ready(row) ? row : undefined;
    },
    { what, timeoutMs: 30_000 },
  );
}

async function metricSample(series: string): Promise<number | undefined> {
  const text = await (await fetch(`http://127.0.0.1:${fixture.config.healthPort}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// a question the rules leave as other (categorizeReply); the stored rows below show it
const neutral = "Hmm, what about the second point?";

test("a reply the rules leave as other is asked of the model and ends as interested, source model", async () => {
  standIn.answer = (request) => (askedAbout(neutral)(request) ? { label: "interested" } : { label: "other" });
  const seeded = await fixture.seed();
  await waitUntilWatched(fixture.db, seeded);
  await fixture.imap.appendMessage(seeded.inbox, replyWith(seeded, neutral));
  const row = await storedReply(seeded, "the model's category", (r) => r.categorySource === "model");
  assert.equal(row.category, "interested");
  assert.ok(row.categorizedAt);
  const asked = standIn.requests.filter(askedAbout(neutral));
  assert.equal(asked.length, 1);
  assert.deepEqual(asked[0]!.problems, [], "the key and the request's shape as the endpoint expects them");
  assert.equal(asked[0]!.body.model, "stand-in");
  const events = await fixture.db.event.findMany({ where: { accountId: seeded.accountId, type: "reply.categorized" } });
  assert.ok(events.some((event) => (event.data as Record<string, unknown>).category === "interested" && (event.data as Record<string, unknown>).category_source === "model"));
  assert.equal(await metricSample('outreach_reply_classifier_calls_total{outcome="categorized"}'), 1);
});

test("a reply the rules categorized is never sent to the model", async () => {
  const declined = "Not interested, thanks. We already have a provider.";
  const later = "And what about the third point?";
  standIn.answer = () => ({ label: "interested" });
  const seeded = await fixture.seed({ contacts: 1 });
  await waitUntilWatched(fixture.db, seeded);
  await fixture.imap.appendMessage(seeded.inbox, replyWith(seeded, declined));
  await fixture.imap.appendMessage(seeded.inbox, replyWith(seeded, later));
  // read in UID order: once the later reply is the model's, the declined one was decided before it
  await storedReply(seeded, "the later reply's category by the model", (r) => r.categorySource === "model");
  const first = await fixture.db.inboundMessage.findFirstOrThrow({ where: { credentialId: seeded.credentialId, kind: "reply" }, orderBy: { uid: "asc" } });
  assert.deepEqual([first.category, first.categorySource], ["not_interested", "rules"]);
  assert.equal(standIn.requests.filter(askedAbout("Not interested")).length, 0);
  assert.equal(await queue.queue.getJob(jobId("categorize-reply", first.id)), undefined);
});

test("with the endpoint failing the question is asked twice, then the reply stays other by the rules", async () => {
  const text = "Hmm, and what about the fourth point?";
  standIn.answer = () => ({ status: 500 });
  const failedBefore = (await metricSample('outreach_reply_classifier_calls_total{outcome="failed"}')) ?? 0;
  const seeded = await fixture.seed();
  await waitUntilWatched(fixture.db, seeded);
  await fixture.imap.appendMessage(seeded.inbox, replyWith(seeded, text));
  const row = await storedReply(seeded, "the reply", (r) => r.categorySource === "rules");
  const job = await waitFor(async () => queue.queue.getJob(jobId("categorize-reply", row.id)), { what: "the categorize-reply job", timeoutMs: 20_000 });
  await waitFor(async () => ((await job.getState()) === "completed" ? true : undefined), { what: "the job's last attempt", timeoutMs: 30_000 });
  assert.equal(standIn.requests.filter(askedAbout(text)).length, 2, "two attempts, no more");
  const after = await fixture.db.inboundMessage.findUniqueOrThrow({ where: { id: row.id } });
  assert.deepEqual([after.category, after.categorySource], ["other", "rules"]);
  assert.equal(await metricSample('outreach_reply_classifier_calls_total{outcome="failed"}'), failedBefore + 2);
});

test("SIGTERM while the model is being asked: the poller process finishes that job, then exits 0", async () => {
  // this process alone works the queue and watches the inbox
  await fixture.poller!.close();
  const text = "Hmm, what about the fifth point?";
  standIn.answer = () => ({ delayMs: 1_000, then: { label: "interested" } });
  const seeded = await fixture.seed();
  pollerProcess = await startAppProcess("imap-poller", { env: fixture.env });
  await waitUntilWatched(fixture.db, seeded);
  await fixture.imap.appendMessage(seeded.inbox, replyWith(seeded, text));
  await waitFor(() => standIn.requests.some(askedAbout(text)) || undefined, { what: "the question to the model", timeoutMs: 30_000 });
  assert.equal(await pollerProcess.stop("SIGTERM", 20_000), 0);
  const row = await fixture.db.inboundMessage.findFirstOrThrow({ where: { credentialId: seeded.credentialId, kind: "reply" } });
  assert.deepEqual([row.category, row.categorySource], ["interested", "model"], "the job in hand was finished before the process exited");
});
