import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";
import { assertEnvelope, call, contactsByEmail, createCampaign, createOutreach, emails, importContacts, workflowApiForFile } from "./workflow-fixtures.js";

const ENROLLMENT_KEYS = [
  "batch_number",
  "bounce_reason",
  "campaign_id",
  "clicked_at",
  "completed_at",
  "contact_id",
  "created_at",
  "email",
  "enrollment_id",
  "moved_from_enrollment_id",
  "moved_on_at",
  "moved_on_result",
  "opened_at",
  "priority",
  "replied_at",
  "resume_at",
  "sent_at",
  "status",
  "stopped_at",
  "stopped_reason",
  "unsubscribed_at",
].sort();

const env = workflowApiForFile();

const db = () => env.api.database.db;

async function enrollments(campaignId: string) {
  return db().enrollment.findMany({ where: { campaignId }, include: { contact: true }, orderBy: { createdAt: "asc" } });
}

async function skips(campaignId: string) {
  return db().enrollmentSkip.findMany({ where: { campaignId }, include: { contact: true } });
}

describe("POST /campaigns/:id/enroll", () => {
  test("enrolls every contact of the import as pending with the given batch and priority, and defaults them to 1 and 0", async () => {
    const campaign = await createCampaign(env);
    const addresses = emails(5);
    const importId = await importContacts(env, addresses);

    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId, batch_number: 3, priority: -7 } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      campaign_id: campaign.id,
      contact_import_id: importId,
      batch_number: 3,
      enrolled: 5,
      already_enrolled: 0,
      skipped: { cross_campaign_duplicate: 0, unsubscribed: 0 },
    });
    const rows = await enrollments(campaign.id);
    assert.deepEqual(rows.map((r) => r.contact.email).sort(), [...addresses].sort());
    for (const row of rows) {
      assert.equal(row.status, "pending");
      assert.equal(row.batchNumber, 3);
      assert.equal(row.priority, -7);
      assert.equal(row.accountId, env.a.accountId);
      assert.equal(row.dispatchedAt, null);
      assert.equal(row.credentialId, null);
    }

    const other = await createCampaign(env);
    const defaults = await call(env, "POST", `/campaigns/${other.id}/enroll`, { body: { contact_import_id: importId } });
    assert.equal(defaults.status, 200, defaults.text);
    assert.equal(defaults.body.batch_number, 1);
    assert.equal(defaults.body.enrolled, 5);
    assert.deepEqual(
      (await enrollments(other.id)).map((r) => [r.batchNumber, r.priority]),
      Array.from({ length: 5 }, () => [1, 0]),
    );
  });

  test("enrolling again counts the contacts as already enrolled and changes nothing; an overlapping import adds only the new ones", async () => {
    const campaign = await createCampaign(env);
    const first = emails(4);
    const importId = await importContacts(env, first);
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } })).body.enrolled, 4);
    const before = await enrollments(campaign.id);

    const again = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId, batch_number: 9, priority: 5 } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      { enrolled: again.body.enrolled, already: again.body.already_enrolled, skipped: again.body.skipped },
      { enrolled: 0, already: 4, skipped: { cross_campaign_duplicate: 0, unsubscribed: 0 } },
    );
    const afterRows = await enrollments(campaign.id);
    assert.deepEqual(
      afterRows.map((r) => [r.id, r.batchNumber, r.priority]),
      before.map((r) => [r.id, r.batchNumber, r.priority]),
      "existing enrollments keep their batch and priority",
    );

    const overlapping = await importContacts(env, [...first.slice(0, 2), ...emails(3, "new")]);
    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: overlapping, batch_number: 2 } });
    assert.deepEqual([res.body.enrolled, res.body.already_enrolled], [3, 2]);
    const rows = await enrollments(campaign.id);
    assert.equal(rows.length, 7);
    assert.equal(rows.filter((r) => r.batchNumber === 2).length, 3);
  });

  test("never enrolls an unsubscribed contact: it is counted as skipped.unsubscribed", async () => {
    const campaign = await createCampaign(env);
    const addresses = emails(4);
    const importId = await importContacts(env, addresses);
    await db().contact.updateMany({ where: { accountId: env.a.accountId, email: { in: addresses.slice(0, 2) } }, data: { unsubscribedAt: new Date() } });

    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.enrolled, 2);
    assert.equal(res.body.already_enrolled, 0);
    assert.deepEqual(res.body.skipped, { cross_campaign_duplicate: 0, unsubscribed: 2 });
    assert.deepEqual((await enrollments(campaign.id)).map((r) => r.contact.email).sort(), addresses.slice(2).sort());
    assert.equal((await skips(campaign.id)).length, 0, "an unsubscribe is not an enrollment skip");
  });

  test("unknown, malformed and another account's imports are 404 contact_import_not_found; nothing is enrolled", async () => {
    const campaign = await createCampaign(env);
    const foreignImport = await importContacts(env, emails(2), env.b.token);
    for (const id of [randomUUID(), "not-a-uuid", foreignImport, "\u0000"]) {
      const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: id } });
      assertEnvelope(env, res, 404, "contact_import_not_found");
    }
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 0);
  });

  test("unknown, malformed and another account's campaigns are 404 campaign_not_found", async () => {
    const importId = await importContacts(env, emails(2));
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "nope", foreign.id]) {
      const res = await call(env, "POST", `/campaigns/${id}/enroll`, { body: { contact_import_id: importId } });
      assertEnvelope(env, res, 404, "campaign_not_found");
    }
    assert.equal(await db().enrollment.count({ where: { campaignId: foreign.id } }), 0);
  });

  test("bad bodies are 422 validation_failed or 400 bad_request and write nothing", async () => {
    const campaign = await createCampaign(env);
    const importId = await importContacts(env, emails(1));
    const cases: Array<[unknown, RegExp]> = [
      [{}, /contact_import_id is required/],
      [{ contact_import_id: 12 }, /contact_import_id must be a string/],
      [{ contact_import_id: "x".repeat(101) }, /contact_import_id/],
      [{ contact_import_id: importId, batch_number: 0 }, /batch_number must be greater than or equal to 1/],
      [{ contact_import_id: importId, batch_number: 1_000_001 }, /batch_number must be less than or equal to 1000000/],
      [{ contact_import_id: importId, batch_number: "2" }, /batch_number must be a number/],
      [{ contact_import_id: importId, batch_number: 1.5 }, /batch_number must be an integer/],
      [{ contact_import_id: importId, batch_number: null }, /batch_number must be a number/],
      [{ contact_import_id: importId, priority: 1001 }, /priority must be less than or equal to 1000/],
      [{ contact_import_id: importId, priority: -1001 }, /priority must be greater than or equal to -1000/],
      [{ contact_import_id: importId, extra: true }, /extra is not allowed/],
      [[importId], /must be of type object/],
    ];
    for (const [body, message] of cases) {
      const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body });
      assertEnvelope(env, res, 422, "validation_failed", message);
    }
    assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { rawBody: "{not json", headers: { "content-type": "application/json" } }), 400, "bad_request");
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 0);
  });

  test("with a unique_contacts outreach, contacts already in a sibling campaign are skipped once, with a reason naming the sibling", async () => {
    const outreachId = await createOutreach(env, true);
    const first = await createCampaign(env, { name: "First wave", outreach_id: outreachId });
    const second = await createCampaign(env, { name: "Second wave", outreach_id: outreachId });
    const shared = emails(3, "shared");
    const fresh = emails(2, "fresh");
    const firstImport = await importContacts(env, shared);
    const secondImport = await importContacts(env, [...shared, ...fresh]);
    assert.equal((await call(env, "POST", `/campaigns/${first.id}/enroll`, { body: { contact_import_id: firstImport } })).body.enrolled, 3);
    // one of the shared contacts has also unsubscribed since: counted as unsubscribed, not as a duplicate
    await db().contact.updateMany({ where: { accountId: env.a.accountId, email: shared[2] }, data: { unsubscribedAt: new Date() } });

    const res = await call(env, "POST", `/campaigns/${second.id}/enroll`, { body: { contact_import_id: secondImport } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      campaign_id: second.id,
      contact_import_id: secondImport,
      batch_number: 1,
      enrolled: 2,
      already_enrolled: 0,
      skipped: { cross_campaign_duplicate: 2, unsubscribed: 1 },
    });
    assert.deepEqual((await enrollments(second.id)).map((r) => r.contact.email).sort(), [...fresh].sort());
    const rows = await skips(second.id);
    assert.deepEqual(rows.map((r) => r.contact.email).sort(), shared.slice(0, 2).sort());
    for (const row of rows) {
      assert.equal(row.kind, "cross_campaign_duplicate");
      assert.equal(row.accountId, env.a.accountId);
      assert.equal(row.enrollmentId, null);
      assert.equal(row.reason, `already enrolled in campaign "First wave" (${first.id}) of the same outreach`);
    }

    // again: the same answer, and no second skip row per contact
    const again = await call(env, "POST", `/campaigns/${second.id}/enroll`, { body: { contact_import_id: secondImport } });
    assert.deepEqual([again.body.enrolled, again.body.already_enrolled, again.body.skipped], [0, 2, { cross_campaign_duplicate: 2, unsubscribed: 1 }]);
    assert.equal((await skips(second.id)).length, 2);
    assert.equal(await db().enrollment.count({ where: { campaignId: first.id } }), 3, "the sibling is untouched");

    // the statistics of the campaign count the skips
    assert.deepEqual((await call(env, "GET", `/campaigns/${second.id}`)).body.skipped, {
      mx_invalid: 0,
      cross_campaign_duplicate: 2,
      blocklisted: 0,
      condition_not_met: 0,
      disposable: 0,
      role_account: 0,
    });
  });

  test("without unique_contacts, or without an outreach, a contact may be in several campaigns", async () => {
    const outreachId = await createOutreach(env, false);
    const one = await createCampaign(env, { outreach_id: outreachId });
    const two = await createCampaign(env, { outreach_id: outreachId });
    const three = await createCampaign(env);
    const importId = await importContacts(env, emails(3));
    for (const campaign of [one, two, three]) {
      const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } });
      assert.deepEqual([res.body.enrolled, res.body.skipped.cross_campaign_duplicate], [3, 0]);
      assert.equal((await skips(campaign.id)).length, 0);
    }
  });

  test("a unique outreach ignores campaigns of other outreaches", async () => {
    const unique = await createOutreach(env, true);
    const elsewhere = await createCampaign(env, { outreach_id: await createOutreach(env, true) });
    const campaign = await createCampaign(env, { outreach_id: unique });
    const importId = await importContacts(env, emails(2));
    assert.equal((await call(env, "POST", `/campaigns/${elsewhere.id}/enroll`, { body: { contact_import_id: importId } })).body.enrolled, 2);
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/enroll`, { body: { contact_import_id: importId } })).body.enrolled, 2);
  });

  test("concurrent enrolls of one import into two campaigns of a unique_contacts outreach enroll each contact exactly once", async () => {
    const outreachId = await createOutreach(env, true);
    const left = await createCampaign(env, { name: "Left", outreach_id: outreachId });
    const right = await createCampaign(env, { name: "Right", outreach_id: outreachId });
    const addresses = emails(2000, "race");
    const importId = await importContacts(env, addresses);

    const [l, r] = await Promise.all([
      call(env, "POST", `/campaigns/${left.id}/enroll`, { body: { contact_import_id: importId } }),
      call(env, "POST", `/campaigns/${right.id}/enroll`, { body: { contact_import_id: importId } }),
    ]);
    assert.equal(l.status, 200, l.text);
    assert.equal(r.status, 200, r.text);
    // one of them ran first and took everyone; the other skipped everyone
    assert.deepEqual([l.body.enrolled + r.body.enrolled, l.body.skipped.cross_campaign_duplicate + r.body.skipped.cross_campaign_duplicate], [2000, 2000]);
    assert.deepEqual([l.body.enrolled, r.body.enrolled].sort(), [0, 2000]);

    const rows = await db().enrollment.groupBy({ by: ["contactId"], where: { campaignId: { in: [left.id, right.id] } }, _count: { _all: true } });
    assert.equal(rows.length, 2000, "every contact is enrolled");
    assert.ok(
      rows.every((row) => row._count._all === 1),
      "in exactly one of the two campaigns",
    );
    const skipRows = await db().enrollmentSkip.count({ where: { campaignId: { in: [left.id, right.id] }, kind: "cross_campaign_duplicate" } });
    assert.equal(skipRows, 2000, "the rest are skipped, once each");
  });

  test("concurrent enrolls of overlapping single contacts and imports never enroll a contact in two unique siblings", async () => {
    const outreachId = await createOutreach(env, true);
    const campaigns = [await createCampaign(env, { outreach_id: outreachId }), await createCampaign(env, { outreach_id: outreachId }), await createCampaign(env, { outreach_id: outreachId })];
    const addresses = emails(30, "mix");
    const importId = await importContacts(env, addresses);
    const contacts = await contactsByEmail(env, env.a.accountId, addresses);
    const requests = [
      ...campaigns.map((c) => call(env, "POST", `/campaigns/${c.id}/enroll`, { body: { contact_import_id: importId } })),
      ...addresses.slice(0, 10).flatMap((email) => campaigns.map((c) => call(env, "POST", `/campaigns/${c.id}/enroll_contact`, { body: { contact_id: contacts.get(email)!.id } }))),
    ];
    const answers = await Promise.all(requests);
    for (const res of answers) assert.ok([200, 201].includes(res.status) || res.body?.code === "contact_already_enrolled", res.text);
    const rows = await db().enrollment.groupBy({ by: ["contactId"], where: { campaignId: { in: campaigns.map((c) => c.id) } }, _count: { _all: true } });
    assert.equal(rows.length, 30);
    assert.ok(rows.every((row) => row._count._all === 1));
  });

  test("enrolls a real import of 100,000 contacts in one request, and skips them all in a unique sibling", async (t) => {
    const outreachId = await createOutreach(env, true);
    const campaign = await createCampaign(env, { outreach_id: outreachId });
    const sibling = await createCampaign(env, { outreach_id: outreachId });
    const addresses = emails(100_000, "bulk");
    const importId = await importContacts(env, addresses);

    const timed = async (campaignId: string, body: Record<string, unknown>) => {
      const started = Date.now();
      const res = await call(env, "POST", `/campaigns/${campaignId}/enroll`, { body: { contact_import_id: importId, ...body } });
      t.diagnostic(`enroll of 100,000 took ${Date.now() - started} ms`);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const first = await timed(campaign.id, { batch_number: 2 });
    assert.equal(first.enrolled, 100_000);
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id, batchNumber: 2, status: "pending" } }), 100_000);

    const skipped = await timed(sibling.id, {});
    assert.deepEqual([skipped.enrolled, skipped.skipped.cross_campaign_duplicate], [0, 100_000]);
    assert.equal(await db().enrollmentSkip.count({ where: { campaignId: sibling.id, kind: "cross_campaign_duplicate" } }), 100_000);
    const skippedAgain = await timed(sibling.id, {});
    assert.equal(skippedAgain.skipped.cross_campaign_duplicate, 100_000);
    assert.equal(await db().enrollmentSkip.count({ where: { campaignId: sibling.id } }), 100_000, "still one skip per contact");

    const again = await timed(campaign.id, {});
    assert.deepEqual([again.enrolled, again.already_enrolled], [0, 100_000]);
    assert.equal(await db().enrollment.count({ where: { campaignId: sibling.id } }), 0);
  });
});

describe("POST /campaigns/:id/enroll_contact", () => {
  async function newContact(email = emails(1, "one")[0]!, accountId = env.a.accountId) {
    return db().contact.create({ data: { accountId, email } });
  }

  test("enrolls one contact: 201 with the enrollment", async () => {
    const campaign = await createCampaign(env);
    const contact = await newContact();
    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body: { contact_id: contact.id, batch_number: 4, priority: 1000 } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["enrolled", "enrollment", "skip"]);
    assert.equal(res.body.enrolled, true);
    assert.equal(res.body.skip, null);
    assert.deepEqual(Object.keys(res.body.enrollment).sort(), ENROLLMENT_KEYS);
    const row = await db().enrollment.findUniqueOrThrow({ where: { campaignId_contactId: { campaignId: campaign.id, contactId: contact.id } } });
    assert.deepEqual(res.body.enrollment, {
      enrollment_id: row.id,
      contact_id: contact.id,
      campaign_id: campaign.id,
      email: contact.email,
      status: "pending",
      batch_number: 4,
      priority: 1000,
      sent_at: null,
      opened_at: null,
      clicked_at: null,
      replied_at: null,
      bounce_reason: null,
      unsubscribed_at: null,
      stopped_at: null,
      stopped_reason: null,
      resume_at: null,
      completed_at: null,
      moved_from_enrollment_id: null,
      moved_on_at: null,
      moved_on_result: null,
      created_at: row.createdAt.toISOString(),
    });
    assert.deepEqual([row.batchNumber, row.priority, row.accountId], [4, 1000, env.a.accountId]);

    const other = await createCampaign(env);
    const defaults = await call(env, "POST", `/campaigns/${other.id}/enroll_contact`, { body: { contact_id: contact.id } });
    assert.equal(defaults.status, 201);
    assert.deepEqual([defaults.body.enrollment.batch_number, defaults.body.enrollment.priority], [1, 0]);
  });

  test("a contact already enrolled is 422 contact_already_enrolled, and the enrollment is unchanged", async () => {
    const campaign = await createCampaign(env);
    const contact = await newContact();
    assert.equal((await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body: { contact_id: contact.id } })).status, 201);
    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body: { contact_id: contact.id, batch_number: 5 } });
    assertEnvelope(env, res, 422, "contact_already_enrolled");
    assert.deepEqual(res.body.details, { contact_id: contact.id, campaign_id: campaign.id });
    const rows = await db().enrollment.findMany({ where: { campaignId: campaign.id } });
    assert.deepEqual(
      rows.map((r) => r.batchNumber),
      [1],
    );
  });

  test("an unsubscribed contact is 422 unprocessable and is not enrolled", async () => {
    const campaign = await createCampaign(env);
    const contact = await db().contact.create({ data: { accountId: env.a.accountId, email: emails(1, "unsub")[0]!, unsubscribedAt: new Date() } });
    const res = await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body: { contact_id: contact.id } });
    assertEnvelope(env, res, 422, "unprocessable", /unsubscribed/);
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 0);
  });

  test("unknown, malformed and another account's contacts are 404 contact_not_found; foreign campaigns 404 campaign_not_found", async () => {
    const campaign = await createCampaign(env);
    const foreignContact = await newContact(emails(1, "foreign")[0]!, env.b.accountId);
    for (const id of [randomUUID(), "abc", foreignContact.id]) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body: { contact_id: id } }), 404, "contact_not_found");
    }
    const contact = await newContact();
    const foreign = await createCampaign(env, {}, env.b.token);
    for (const id of [randomUUID(), "abc", foreign.id]) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${id}/enroll_contact`, { body: { contact_id: contact.id } }), 404, "campaign_not_found");
    }
    assert.equal(await db().enrollment.count({ where: { contactId: { in: [contact.id, foreignContact.id] } } }), 0);
  });

  test("bad bodies are 422 validation_failed", async () => {
    const campaign = await createCampaign(env);
    const contact = await newContact();
    for (const [body, message] of [
      [{}, /contact_id is required/],
      [{ contact_id: contact.id, batch_number: -1 }, /batch_number/],
      [{ contact_id: contact.id, priority: "1" }, /priority must be a number/],
      [{ contact_id: contact.id, status: "sent" }, /status is not allowed/],
    ] as Array<[unknown, RegExp]>) {
      assertEnvelope(env, await call(env, "POST", `/campaigns/${campaign.id}/enroll_contact`, { body }), 422, "validation_failed", message);
    }
    assert.equal(await db().enrollment.count({ where: { campaignId: campaign.id } }), 0);
  });

  test("a contact already in a sibling campaign of a unique_contacts outreach: 200, not enrolled, the skip persisted once", async () => {
    const outreachId = await createOutreach(env, true);
    const first = await createCampaign(env, { name: "Alpha", outreach_id: outreachId });
    const second = await createCampaign(env, { name: "Beta", outreach_id: outreachId });
    const contact = await newContact();
    assert.equal((await call(env, "POST", `/campaigns/${first.id}/enroll_contact`, { body: { contact_id: contact.id } })).status, 201);

    const expected = { enrolled: false, enrollment: null, skip: { kind: "cross_campaign_duplicate", reason: `already enrolled in campaign "Alpha" (${first.id}) of the same outreach` } };
    for (let i = 0; i < 2; i++) {
      const res = await call(env, "POST", `/campaigns/${second.id}/enroll_contact`, { body: { contact_id: contact.id } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, expected);
    }
    const rows = await skips(second.id);
    assert.equal(rows.length, 1);
    assert.deepEqual([rows[0]!.contactId, rows[0]!.kind, rows[0]!.reason], [contact.id, "cross_campaign_duplicate", expected.skip.reason]);
    assert.equal(await db().enrollment.count({ where: { campaignId: second.id } }), 0);

    // an import into the same campaign does not add a second skip row for the contact
    const importId = await importContacts(env, [contact.email]);
    const bulk = await call(env, "POST", `/campaigns/${second.id}/enroll`, { body: { contact_import_id: importId } });
    assert.deepEqual(bulk.body.skipped, { cross_campaign_duplicate: 1, unsubscribed: 0 });
    assert.equal((await skips(second.id)).length, 1);
  });
});
