import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { announceAccountAccessChange, sha256Hex } from "@outreach/core";
import { listUnsubscribeHeaders, trackingLinks } from "@outreach/domain";
import { runOperatorCommand, type OperatorDeps } from "@outreach/domain/src/operations/cli/operator-command.js";
import { waitFor } from "@outreach/testing";
import { assertError, request, signUp, startTestApi, type TestApi } from "./helpers.js";

// pnpm ops suspend / unsuspend as the API sees them: every authenticated request of the account is 403 account_suspended.
let api: TestApi;
let suspended: { accountId: string; token: string };
let other: { accountId: string; token: string };
const logged: Array<{ message: string; fields?: Record<string, unknown> }> = [];

before(async () => {
  api = await startTestApi();
  suspended = await signUp(api);
  other = await signUp(api);
});
after(() => api?.close());

/** What `pnpm ops` wires: the announcement to the API replicas over Redis, and a logger. */
const deps = (): OperatorDeps => ({
  announceAccountChange: (accountId) => announceAccountAccessChange(api.ctx.producer, api.config, accountId),
  logger: { warn: (message, fields) => logged.push({ message, fields }) },
});

/** The API replica has dropped what it cached of the key (the announcement arrived). */
const notCached = (token: string) => waitFor(() => api.ctx.keyCache.get(sha256Hex(token)) === undefined, { what: "the key cache to drop the account's key" });

const mcp = (token: string) => request(api.baseUrl, "POST", "/mcp", { token, headers: { accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });

test("a suspended account's keys get 403 account_suspended on REST and /mcp at once; other accounts, and its public links, are served; unsuspend serves it again", async () => {
  const second = await request(api.baseUrl, "POST", "/api_keys", { token: suspended.token, body: { label: "agent", client_kind: "mcp" } });
  assert.equal(second.status, 201, second.text);
  const agentToken = second.body.plaintext as string;
  // both keys are in the API's cache before the suspension
  assert.equal((await request(api.baseUrl, "GET", "/campaigns", { token: suspended.token })).status, 200);
  assert.equal((await mcp(agentToken)).status, 200);
  assert.ok(api.ctx.keyCache.get(sha256Hex(suspended.token)));

  // a contact of the account who was emailed: the links in that email
  const db = api.ctx.db;
  const campaign = await db.campaign.create({ data: { accountId: suspended.accountId, name: "Before the suspension", status: "active" } });
  const person = await db.contact.create({ data: { accountId: suspended.accountId, email: "reader@suspended.test" } });
  const enrollment = await db.enrollment.create({ data: { accountId: suspended.accountId, campaignId: campaign.id, contactId: person.id, status: "sent", sentAt: new Date() } });

  const result = await runOperatorCommand(db, ["suspend", suspended.accountId, "--reason", "abuse report 42"], deps());
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /suspended at \S+ \(abuse report 42\): its API requests are refused and its sends held/);
  assert.deepEqual(logged.at(-1), {
    message: "account suspended",
    fields: { accountId: suspended.accountId, email: (await db.account.findUniqueOrThrow({ where: { id: suspended.accountId } })).email, reason: "abuse report 42" },
  });
  await notCached(suspended.token);
  await notCached(agentToken);

  const row = await db.account.findUniqueOrThrow({ where: { id: suspended.accountId } });
  assert.ok(row.suspendedAt);
  assert.equal(row.suspendedReason, "abuse report 42");
  const listed = await runOperatorCommand(db, ["accounts", "--email", row.email, "--json"]);
  assert.equal(JSON.parse(listed.stdout)[0].suspended_at, row.suspendedAt.toISOString(), "pnpm ops accounts shows it");

  for (const res of [
    await request(api.baseUrl, "GET", "/campaigns", { token: suspended.token }),
    await request(api.baseUrl, "POST", "/campaigns", { token: suspended.token, body: { name: "x" } }),
    await request(api.baseUrl, "GET", "/api_keys", { token: agentToken }),
    await mcp(agentToken),
    await mcp(suspended.token),
  ]) {
    assertError(res, api, 403, "account_suspended", /suspended/);
    assert.equal(res.body.details.suspended_at, row.suspendedAt!.toISOString());
    assert.ok(!res.text.includes("abuse report"), "the operator's reason is not shown to the account");
  }
  // the refusal needs a valid key: an unknown one is still 401
  assertError(await request(api.baseUrl, "GET", "/campaigns", { token: "ak_live_" + "x".repeat(43) }), api, 401, "unauthorized");
  // nobody else is affected
  assert.equal((await request(api.baseUrl, "GET", "/campaigns", { token: other.token })).status, 200);

  // the links in emails it sent keep working: open pixel, and one-click unsubscribe
  const links = trackingLinks(api.config.publicBaseUrl, api.config.encryptionKey, enrollment.id);
  const pixel = await fetch(`${api.baseUrl}${new URL(links.openPixelUrl).pathname}`);
  assert.equal(pixel.status, 200);
  const unsubscribe = await request(api.baseUrl, "POST", new URL(links.unsubscribeUrl).pathname, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    rawBody: listUnsubscribeHeaders(links.unsubscribeUrl)["List-Unsubscribe-Post"],
  });
  assert.equal(unsubscribe.status, 200, unsubscribe.text);
  assert.ok((await db.contact.findUniqueOrThrow({ where: { id: person.id } })).unsubscribedAt, "unsubscribed");

  // suspending again changes nothing: the first time and reason stay
  const again = await runOperatorCommand(db, ["suspend", suspended.accountId, "--reason", "other", "--json"], deps());
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(JSON.parse(again.stdout), { account_id: suspended.accountId, email: row.email, suspended_at: row.suspendedAt!.toISOString(), suspended_reason: "abuse report 42", changed: false });

  const lifted = await runOperatorCommand(db, ["unsuspend", row.email], deps());
  assert.equal(lifted.code, 0, lifted.stderr);
  assert.match(lifted.stdout, /unsuspended \(suspended since \S+\): requests are served and its held sends go out/);
  assert.equal(logged.at(-1)?.message, "account unsuspended");
  await notCached(suspended.token);
  assert.equal((await request(api.baseUrl, "GET", "/campaigns", { token: suspended.token })).status, 200);
  assert.equal((await mcp(agentToken)).status, 200);
  const after = await db.account.findUniqueOrThrow({ where: { id: suspended.accountId } });
  assert.deepEqual([after.suspendedAt, after.suspendedReason], [null, null]);

  const notSuspended = await runOperatorCommand(db, ["unsuspend", suspended.accountId], deps());
  assert.equal(notSuspended.code, 0);
  assert.match(notSuspended.stdout, /is not suspended: nothing changed/);
});

test("without the announcement (Redis away), a key looked up afresh is refused, and the command says when the API replicas will see it", async () => {
  const account = await signUp(api);
  const result = await runOperatorCommand(api.ctx.db, ["suspend", account.accountId], {
    announceAccountChange: async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:6379");
    },
  });
  assert.equal(result.code, 0, "the suspension is made");
  assert.match(result.stderr, /could not tell the API replicas at once \(connect ECONNREFUSED 127\.0\.0\.1:6379\); they see the change within 10 s/);
  // this key was never used, so nothing is cached: the lookup reads the suspension
  assertError(await request(api.baseUrl, "GET", "/campaigns", { token: account.token }), api, 403, "account_suspended");
});

test("pnpm ops suspend and unsuspend refuse an unknown account, a missing one and an over-long reason", async () => {
  const db = api.ctx.db;
  for (const args of [
    ["suspend", "6f1c2a7e-0000-4000-8000-00000000dead"],
    ["unsuspend", "nobody@nowhere.test"],
  ]) {
    const result = await runOperatorCommand(db, args);
    assert.equal(result.code, 1, args.join(" "));
    assert.match(result.stderr, new RegExp(`no account ${args[1]}`));
  }
  for (const args of [["suspend"], ["unsuspend"], ["suspend", "a", "b"]]) {
    const result = await runOperatorCommand(db, args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /usage: pnpm ops <command>/);
  }
  const long = await runOperatorCommand(db, ["suspend", other.accountId, "--reason", "x".repeat(501)]);
  assert.equal(long.code, 1);
  assert.match(long.stderr, /at most 500/);
  assert.equal((await db.account.findUniqueOrThrow({ where: { id: other.accountId } })).suspendedAt, null);
});
