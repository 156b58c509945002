import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { classifyInbound, readInbound, recordInboundMessage } from "@outreach/domain";
import { apiRequest, waitFor } from "@outreach/testing";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startRealService, type RealService } from "../../../test/kit/real-service.js";
import { buildTools } from "../src/index.js";
import { callTool, connectHttpClient, CONTRACT_TOOL_NAMES } from "./mcp-client.js";

// An agent on the real service (API, dispatcher, sender, SMTP server in-process)
// through the SDK's own MCP client over Streamable HTTP.
let service: RealService;
let agent: Client;
let accountId: string;
let mcpKey: string;
let directKey: string;
/** the campaign the flow test dispatched (the reply test answers one of its contacts) */
let flowCampaignId: string;

function rest(method: string, path: string, key: string, body?: unknown) {
  return apiRequest(service.baseUrl, method, path, { token: key, body });
}

async function signUp(email: string) {
  const { body } = await apiRequest(service.baseUrl, "POST", "/signup", { body: { email, name: email } });
  return { accountId: body.account_id as string, key: body.api_key.plaintext as string };
}

before(async () => {
  service = await startRealService();
  const account = await signUp("agent-owner@acme.test");
  accountId = account.accountId;
  directKey = account.key;
  const key = await rest("POST", "/api_keys", directKey, { label: "assistant", client_kind: "mcp" });
  assert.equal(key.body.client_kind, "mcp");
  mcpKey = key.body.plaintext;
  agent = await connectHttpClient(service.baseUrl, mcpKey);
});
after(async () => {
  await agent?.close();
  await service?.stop();
});

test("tools/list has every CONTRACT tool, each with input and output schemas and its annotations", async () => {
  const { tools } = await agent.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of CONTRACT_TOOL_NAMES) assert.ok(names.includes(name), `${name} is listed`);
  for (const tool of tools) {
    assert.match(tool.name, /^[a-z]+(?:_[a-z]+)*$/, "snake_case");
    assert.equal(tool.inputSchema.type, "object", `${tool.name}: input schema`);
    assert.equal(tool.outputSchema?.type, "object", `${tool.name}: output schema`);
    assert.ok((tool.description ?? "").length > 80, `${tool.name}: a description a model can choose by`);
    for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
      assert.equal(typeof tool.annotations?.[hint], "boolean", `${tool.name}: ${hint}`);
    }
  }
  for (const name of ["dispatch_campaign", "test_send", "answer_reply"]) {
    const tool = tools.find((t) => t.name === name)!;
    assert.equal((tool.inputSchema.properties as any).confirm.type, "boolean", `${name} takes confirm`);
    assert.equal(tool.annotations?.readOnlyHint, false);
    assert.equal(tool.annotations?.destructiveHint, true, `${name} sends mail: destructive`);
  }
  assert.equal(tools.find((t) => t.name === "list_campaigns")!.annotations?.readOnlyHint, true);

  // the schemas are the ones of the API's published document
  const document = await (await fetch(`${service.baseUrl}/openapi.json`)).json();
  assert.deepEqual(tools, buildTools(document as never));
});

test("an agent creates, fills and dispatches a campaign: a preview without confirm sends nothing, confirm sends once however often it is repeated", async () => {
  const { engine } = service;
  const created = await callTool(agent, "create_campaign", {
    name: "Agent launch",
    min_wait_seconds: 0,
    max_wait_seconds: 0,
    smtp_credentials: [
      {
        label: "Sales",
        from_email: "sales@acme.test",
        smtp_host: engine.smtp.host,
        smtp_port: engine.smtp.port,
        smtp_secure: false,
        smtp_username: "mcp-flow-inbox",
        smtp_password: "pw",
        daily_limit: 50,
      },
    ],
    sequence_steps: [
      { position: 1, subject: "Hello {{first_name}}", body_html: "<p>Hi {{first_name}}, about {{company}}</p>", delay_minutes: 0 },
      { position: 2, subject: "Following up", body_html: "<p>Any thoughts?</p>", delay_minutes: 4320 },
    ],
  });
  assert.equal(created.isError, undefined, JSON.stringify(created.structuredContent));
  const campaign = created.structuredContent;
  assert.equal(campaign.status, "pending");
  assert.equal(campaign.smtp_credentials[0].smtp_password, undefined, "no password in a result");

  // list_campaigns answers what GET /campaigns answers, as a page
  const listed = await callTool(agent, "list_campaigns", {});
  const viaRest = await rest("GET", "/campaigns", mcpKey);
  assert.deepEqual(listed.structuredContent, { data: viaRest.body, has_more: false, next_starting_after: null });

  const imported = await callTool(agent, "import_contacts", {
    name: "Agent list",
    contacts: [{ email: "ada@lovelace.test", first_name: "Ada", company: "Analytical" }, { email: "grace@hopper.test", first_name: "Grace" }, { email: "not an address" }],
  });
  assert.equal(imported.structuredContent.imported_count, 2);
  assert.equal(imported.structuredContent.invalid_count, 1);
  const enrolled = await callTool(agent, "enroll_contacts", { campaign_id: campaign.id, contact_import_id: imported.structuredContent.id });
  assert.equal(enrolled.structuredContent.enrolled, 2);

  // without confirm: a preview, and nothing changes
  const preview = await callTool(agent, "dispatch_campaign", { campaign_id: campaign.id });
  assert.equal(preview.isError, undefined, JSON.stringify(preview.structuredContent));
  const p = preview.structuredContent;
  assert.equal(p.preview, true);
  assert.equal(p.contacts, 2);
  assert.deepEqual(p.emails, { step_1: 2, follow_ups_at_most: 2, total_at_most: 4 });
  assert.deepEqual(
    p.inboxes.map((inbox: any) => [inbox.from_email, inbox.daily_limit, inbox.sends_left_today]),
    [["sales@acme.test", 50, 50]],
  );
  assert.equal(p.held_reason, null);
  assert.ok(Date.parse(p.first_send_at) <= Date.now() + 1000, "no schedule: at once");
  assert.equal(p.plan.slug, "free");
  assert.equal(p.plan.sends_left, p.plan.monthly_limit);
  // an import's contacts are enrolled together (one priority, one time): the dispatch takes them by id, and so does the preview
  const firstInDispatch = (await engine.db.enrollment.findFirstOrThrow({ where: { campaignId: campaign.id }, orderBy: { id: "asc" }, include: { contact: true } })).contact;
  assert.equal(p.step_1.to, firstInDispatch.email);
  assert.equal(p.step_1.subject, `Hello ${firstInDispatch.firstName}`, "step 1 rendered for the first contact");
  assert.match(p.step_1.text, firstInDispatch.firstName === "Ada" ? /Hi Ada, about Analytical/ : /Hi Grace, about/);
  assert.match(preview.content[0]!.type === "text" ? preview.content[0]!.text : "", /confirm: true would send step 1 to 2 contacts/);
  assert.equal(await engine.db.enrollment.count({ where: { campaignId: campaign.id, dispatchedAt: { not: null } } }), 0, "nothing dispatched");
  assert.equal((await rest("GET", `/campaigns/${campaign.id}`, mcpKey)).body.status, "pending", "the campaign did not change");

  // with confirm: dispatched, and the emails arrive
  const dispatched = await callTool(agent, "dispatch_campaign", { campaign_id: campaign.id, confirm: true });
  assert.equal(dispatched.isError, undefined, JSON.stringify(dispatched.structuredContent));
  assert.equal(dispatched.structuredContent.preview, false);
  assert.equal(dispatched.structuredContent.queued, true);
  assert.equal(dispatched.structuredContent.pending, 2);
  const inbox = () => engine.smtp.messages.filter((m) => m.username === "mcp-flow-inbox");
  await waitFor(() => inbox().length === 2, { timeoutMs: 60_000, what: "the two step-1 emails" });
  assert.deepEqual(
    inbox()
      .map((m) => m.parsed.subject)
      .sort(),
    ["Hello Ada", "Hello Grace"],
  );

  // the same call again (an agent retrying): the first result, nothing sent twice
  const repeated = await callTool(agent, "dispatch_campaign", { campaign_id: campaign.id, confirm: true });
  assert.deepEqual(repeated.structuredContent, dispatched.structuredContent);
  await waitFor(async () => (await engine.db.stepSend.count({ where: { campaignId: campaign.id, stepPosition: 1, state: "sent" } })) === 2, { what: "both sends recorded" });
  assert.equal(await engine.db.stepSend.count({ where: { campaignId: campaign.id, stepPosition: 1 } }), 2, "one step-1 send per contact");
  assert.equal(inbox().length, 2, "two emails, not four");

  // the stats, as a tool and as a resource
  const stats = await waitFor(
    async () => {
      const got = await callTool(agent, "get_campaign", { campaign_id: campaign.id });
      return got.structuredContent.totals.sent === 2 ? got.structuredContent : undefined;
    },
    { what: "the stats to count two sends" },
  );
  assert.equal(stats.status, "active");
  const resource = await agent.readResource({ uri: `outreach://campaigns/${campaign.id}/stats` });
  const content = resource.contents[0] as { text: string; mimeType: string };
  assert.equal(content.mimeType, "application/json");
  assert.equal(JSON.parse(content.text).stats.totals.sent, 2);
  const { resources } = await agent.listResources();
  assert.ok(resources.some((r) => r.uri === `outreach://campaigns/${campaign.id}/stats`));
  flowCampaignId = campaign.id;
});

test("an agent reads a reply and answers it: previewed first, sent once in the thread on confirm", async () => {
  const { engine } = service;
  // Ada's reply to step 1, recorded as the IMAP poller records what it reads
  const send = await engine.db.stepSend.findFirstOrThrow({ where: { campaignId: flowCampaignId, enrollment: { contact: { email: "ada@lovelace.test" } } }, include: { enrollment: true } });
  const message = await readInbound(
    ["From: Ada <ada@lovelace.test>", "To: sales@acme.test", "Subject: Re: Hello Ada", "Message-ID: <ada-reply@lovelace.test>", `In-Reply-To: <${send.messageId}>`, "", "Tell me more.", ""].join(
      "\r\n",
    ),
  );
  await engine.db.$transaction((tx) => recordInboundMessage(tx, { credentialId: send.credentialId!, accountId, uidValidity: 1n, uid: 1n }, message, classifyInbound(message)));

  const replies = await callTool(agent, "list_replies", { campaign_id: flowCampaignId });
  assert.equal(replies.structuredContent.data.length, 1);
  const replyId = replies.structuredContent.data[0].id;
  const reply = await callTool(agent, "get_reply", { reply_id: replyId });
  assert.match(reply.structuredContent.body_text, /Tell me more/);

  const preview = await callTool(agent, "answer_reply", { reply_id: replyId, body_html: "<p>Gladly: here is more.</p>" });
  assert.equal(preview.isError, undefined, JSON.stringify(preview.structuredContent));
  assert.deepEqual(
    { ...preview.structuredContent, summary: undefined, inbox: undefined },
    {
      preview: true,
      summary: undefined,
      reply_id: replyId,
      to: "ada@lovelace.test",
      inbox: undefined,
      subject: "Re: Hello Ada",
      body_html: "<p>Gladly: here is more.</p>",
      body_text: "Gladly: here is more.",
    },
  );
  assert.equal(preview.structuredContent.inbox.from_email, "sales@acme.test");
  assert.equal(preview.structuredContent.inbox.sends_left_today, 48, "two step-1 sends used the inbox's 50 today");
  assert.equal(await engine.db.replyAnswer.count({ where: { inboundMessageId: replyId } }), 0, "a preview records no answer");

  const answered = await callTool(agent, "answer_reply", { reply_id: replyId, body_html: "<p>Gladly: here is more.</p>", confirm: true });
  assert.equal(answered.structuredContent.preview, false);
  assert.equal(answered.structuredContent.state, "queued");
  const again = await callTool(agent, "answer_reply", { reply_id: replyId, body_html: "<p>Gladly: here is more.</p>", confirm: true });
  assert.deepEqual(again.structuredContent, answered.structuredContent);
  const toAda = () => engine.smtp.messagesTo("ada@lovelace.test").filter((m) => m.parsed.subject === "Re: Hello Ada");
  await waitFor(() => toAda().length === 1, { timeoutMs: 30_000, what: "the answer at the SMTP server" });
  assert.equal(toAda()[0]!.parsed.inReplyTo, "<ada-reply@lovelace.test>");
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(toAda().length, 1, "answered once");
  assert.equal(await engine.db.replyAnswer.count({ where: { inboundMessageId: replyId } }), 1);
});

test("a test send is previewed first and sent once on confirm; another account's campaign is the same error as a missing one", async () => {
  const { engine } = service;
  const created = await callTool(agent, "create_campaign", {
    name: "Agent test send",
    smtp_credentials: [
      {
        label: "Tests",
        from_email: "tests@acme.test",
        smtp_host: engine.smtp.host,
        smtp_port: engine.smtp.port,
        smtp_secure: false,
        smtp_username: "mcp-test-inbox",
        smtp_password: "pw",
        daily_limit: 10,
      },
    ],
    sequence_steps: [{ position: 1, subject: 'Check {{first_name | "there"}}', body_html: "<p>Looks right?</p>", delay_minutes: 0 }],
  });
  assert.equal(created.isError, undefined, JSON.stringify(created.structuredContent));
  const campaignId = created.structuredContent.id;
  const preview = await callTool(agent, "test_send", { campaign_id: campaignId, emails: ["Me@Acme.test"] });
  assert.equal(preview.isError, undefined, JSON.stringify(preview.structuredContent));
  assert.equal(preview.structuredContent.preview, true);
  assert.deepEqual(preview.structuredContent.emails, ["me@acme.test"]);
  assert.equal(preview.structuredContent.total_emails, 1);
  assert.equal(preview.structuredContent.step_1.subject, "[Test] Check there");
  assert.deepEqual(preview.structuredContent.inbox, { id: created.structuredContent.smtp_credentials[0].id, from_email: "tests@acme.test" });
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(engine.smtp.messages.filter((m) => m.username === "mcp-test-inbox").length, 0, "a preview sends nothing");

  const sent = await callTool(agent, "test_send", { campaign_id: campaignId, emails: ["Me@Acme.test"], confirm: true });
  assert.equal(sent.structuredContent.preview, false);
  assert.deepEqual(sent.structuredContent.emails, ["me@acme.test"]);
  const again = await callTool(agent, "test_send", { campaign_id: campaignId, emails: ["Me@Acme.test"], confirm: true });
  assert.deepEqual(again.structuredContent, sent.structuredContent, "the repeat answers the first result");
  await waitFor(() => engine.smtp.messages.some((m) => m.username === "mcp-test-inbox"), { timeoutMs: 30_000, what: "the test email" });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(engine.smtp.messages.filter((m) => m.username === "mcp-test-inbox").length, 1, "sent once");

  // another account's campaign: campaign_not_found, word for word as for an id that exists nowhere
  const stranger = await signUp("stranger@other.test");
  const theirs = await rest("POST", "/campaigns", stranger.key, {
    name: "Theirs",
    smtp_credentials: [
      { label: "X", from_email: "x@other.test", smtp_host: engine.smtp.host, smtp_port: engine.smtp.port, smtp_secure: false, smtp_username: "x", smtp_password: "pw", daily_limit: 10 },
    ],
    sequence_steps: [{ position: 1, subject: "Hi", body_html: "<p>Hi</p>", delay_minutes: 0 }],
  });
  assert.equal(theirs.status, 201);
  for (const name of ["get_campaign", "dispatch_campaign", "pause_campaign"]) {
    const foreign = await callTool(agent, name, { campaign_id: theirs.body.id, ...(name === "dispatch_campaign" ? { confirm: true } : {}) });
    const missing = await callTool(agent, name, { campaign_id: "6f1c2a7e-0000-4000-8000-000000000000", ...(name === "dispatch_campaign" ? { confirm: true } : {}) });
    assert.equal(foreign.isError, true, name);
    assert.equal(foreign.structuredContent.code, "campaign_not_found", name);
    assert.deepEqual({ ...foreign.structuredContent, request_id: undefined }, { ...missing.structuredContent, request_id: undefined }, `${name}: indistinguishable`);
  }
  assert.equal((await rest("GET", `/campaigns/${theirs.body.id}`, stranger.key)).body.status, "pending", "their campaign untouched");
});

test("bad arguments and failed actions come back as tool errors with the envelope's code and message", async () => {
  const unknownInput = await callTool(agent, "list_campaigns", { limit: 5, colour: "red" });
  assert.equal(unknownInput.isError, true);
  assert.equal(unknownInput.structuredContent.code, "validation_failed");
  assert.deepEqual(
    unknownInput.structuredContent.details.errors.map((e: any) => e.field),
    ["colour"],
  );

  const badLimit = await callTool(agent, "list_campaigns", { limit: 0 });
  assert.equal(badLimit.structuredContent.code, "validation_failed");
  assert.match(badLimit.structuredContent.message, /limit/);

  const missingBody = await callTool(agent, "create_campaign", { name: "No steps" });
  assert.equal(missingBody.structuredContent.code, "validation_failed");
  assert.ok(missingBody.structuredContent.details.errors.some((e: any) => e.field === "smtp_credentials"));

  const nothingPending = await callTool(agent, "dispatch_campaign", { campaign_id: (await callTool(agent, "list_campaigns")).structuredContent.data[0].id });
  assert.equal(nothingPending.isError, true);
  assert.equal(nothingPending.structuredContent.code, "no_pending_enrollments", "a preview answers the error the dispatch would");

  const noSuchTool = await callTool(agent, "delete_everything", {});
  assert.equal(noSuchTool.isError, true);
  assert.equal(noSuchTool.structuredContent.code, "not_found");
});

test("list tools paginate with the next cursor", async () => {
  const first = await callTool(agent, "list_campaigns", { limit: 1 });
  assert.equal(first.structuredContent.data.length, 1);
  assert.equal(first.structuredContent.has_more, true);
  const second = await callTool(agent, "list_campaigns", { limit: 1, starting_after: first.structuredContent.next_starting_after });
  assert.equal(second.structuredContent.data.length, 1);
  assert.notEqual(second.structuredContent.data[0].id, first.structuredContent.data[0].id);
});

test("the endpoint wants the API key (401 with WWW-Authenticate: Bearer) and refuses web pages of other origins", async () => {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const anonymous = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers, body });
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get("www-authenticate"), "Bearer");
  assert.equal(((await anonymous.json()) as any).code, "unauthorized");

  const authorized = { ...headers, Authorization: `Bearer ${mcpKey}` };
  const rebound = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers: { ...authorized, Origin: "http://evil.test" }, body });
  assert.equal(rebound.status, 403);
  assert.equal(((await rebound.json()) as any).code, "origin_not_allowed");
  // the deployment's own origin (PUBLIC_BASE_URL) on a host it answers to
  const own = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers: { ...authorized, Origin: "http://outreach.test" }, body });
  assert.equal(own.status, 200);

  // a plain JSON client without the event-stream Accept still gets its JSON answer
  const plain = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${mcpKey}` }, body });
  assert.equal(plain.status, 200);
  assert.ok(((await plain.json()) as any).result.tools.length >= CONTRACT_TOOL_NAMES.length);

  const notJsonRpc = await fetch(`${service.baseUrl}/mcp`, { method: "POST", headers: authorized, body: JSON.stringify({ hello: "world" }) });
  assert.equal(notJsonRpc.status, 400);
  assert.equal(((await notJsonRpc.json()) as any).code, "bad_request");

  const stream = await fetch(`${service.baseUrl}/mcp`, { headers: { Authorization: `Bearer ${mcpKey}`, Accept: "text/event-stream" } });
  assert.equal(stream.status, 405);
  assert.equal(stream.headers.get("allow"), "POST");
});

test("the agent's traffic is counted under mcp, each tool call by name, failed calls as errors", async () => {
  await waitFor(
    async () => {
      await service.api.usage.flush();
      return (await service.engine.db.requestLog.count({ where: { accountId, clientKind: "mcp", route: "/mcp tools/call dispatch_campaign" } })) >= 3;
    },
    { what: "the dispatch calls in the request log" },
  );
  const logged = await service.engine.db.requestLog.findMany({ where: { accountId, clientKind: "mcp" } });
  assert.deepEqual(
    logged.filter((row) => row.status === 405),
    [],
    "the clients' probes for an event stream are not usage",
  );
  const failedForeign = logged.filter((row) => row.route === "/mcp tools/call get_campaign" && row.status === 404);
  assert.equal(failedForeign.length, 2, "the foreign and the missing campaign");
  const usage = await rest("GET", "/usage", directKey);
  const mcp = usage.body.by_client_kind.find((row: any) => row.client_kind === "mcp");
  assert.equal(mcp.requests, logged.length);
  assert.equal(mcp.errors, logged.filter((row) => row.status >= 400).length);
  assert.ok(mcp.errors >= 8, "every failed tool call counts");
  const asTool = await callTool(agent, "get_usage", { days: 1 });
  assert.ok(asTool.structuredContent.by_client_kind.find((row: any) => row.client_kind === "mcp").requests >= logged.length);
});
