import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before } from "node:test";
import { createRedis, TypedQueue, type QueueName, type QueuePayloads } from "@outreach/core";
import { assertErrorEnvelope } from "@outreach/testing";
import { request, signUp, startTestApi, type JsonResponse, type TestApi } from "./helpers.js";

/** Shared set-up of the campaign workflow tests: an API with two accounts. */
export interface WorkflowEnv {
  api: TestApi;
  a: { accountId: string; token: string };
  b: { accountId: string; token: string };
}

export async function startWorkflowApi(): Promise<WorkflowEnv> {
  const api = await startTestApi({ SIGNUP_LIMIT_PER_HOUR: "100000", RATE_LIMIT_PER_MINUTE: "10000000" });
  const a = await signUp(api);
  const b = await signUp(api);
  return { api, a, b };
}

/**
 * The workflow API for one test file: started before its tests and closed after
 * them. The answer is filled in by the before hook, so read it inside tests.
 */
export function workflowApiForFile(): WorkflowEnv {
  const env = {} as WorkflowEnv;
  before(async () => {
    Object.assign(env, await startWorkflowApi());
  });
  after(() => env.api?.close());
  return env;
}

/** The keys of a sending credential as the campaign's answers show it (sorted). */
export const CREDENTIAL_KEYS = [
  "auth",
  "created_at",
  "daily_limit",
  "disabled_at",
  "disabled_reason",
  "from_email",
  "from_name",
  "has_imap",
  "id",
  "imap_host",
  "imap_last_checked_at",
  "imap_last_error",
  "imap_port",
  "imap_secure",
  "imap_status",
  "imap_username",
  "label",
  "last_error",
  "last_error_at",
  "paused_reason",
  "paused_until",
  "provider",
  "ramp",
  "ramp_started_at",
  "smtp_host",
  "smtp_port",
  "smtp_secure",
  "smtp_username",
  "tracking_domain",
];

export function call(env: WorkflowEnv, method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string } = {}): Promise<JsonResponse> {
  return request(env.api.baseUrl, method, path, { token: env.a.token, ...options });
}

/** The error envelope: status, code, type and a message. */
export function assertEnvelope(env: WorkflowEnv, res: JsonResponse, status: number, code: string, message?: RegExp): void {
  assertErrorEnvelope(res, status, code, message, { docsUrl: env.api.config.docsUrl });
}

export function credential(overrides: Record<string, unknown> = {}) {
  return {
    label: "Primary",
    from_email: "sender@example.com",
    smtp_host: "smtp.example.com",
    smtp_port: 587,
    smtp_username: "sender@example.com",
    smtp_password: "smtp-secret-password",
    daily_limit: 50,
    ...overrides,
  };
}

export function step(position: number, overrides: Record<string, unknown> = {}) {
  return { position, subject: `Step ${position}`, body_html: `<p>Hello {{first_name}}, step ${position}</p>`, delay_minutes: position === 1 ? 0 : 60 * 24, ...overrides };
}

/** POST /campaigns; answers the created campaign (with smtp_credentials and their ids). */
export async function createCampaign(env: WorkflowEnv, overrides: Record<string, unknown> = {}, token = env.a.token): Promise<any> {
  const res = await call(env, "POST", "/campaigns", {
    token,
    body: { campaign: { name: `Campaign ${randomUUID().slice(0, 8)}`, smtp_credentials: [credential()], sequence_steps: [step(1)], ...overrides } },
  });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/**
 * POSTs one campaign per case, its fields with the case's overrides, and expects
 * each to be 422 validation_failed with the message and an error on the field;
 * then that none of them wrote a campaign.
 */
export async function assertCampaignsRejected(
  env: WorkflowEnv,
  fields: (overrides: Record<string, unknown>) => Record<string, unknown>,
  cases: Array<[Record<string, unknown>, string, RegExp]>,
): Promise<void> {
  const before = await env.api.database.db.campaign.count();
  for (const [overrides, field, message] of cases) {
    const res = await call(env, "POST", "/campaigns", { body: { campaign: fields(overrides) } });
    assertEnvelope(env, res, 422, "validation_failed", message);
    assert.ok(
      res.body.details.errors.some((e: { field: string }) => e.field === field),
      `${field} in ${res.text}`,
    );
  }
  assert.equal(await env.api.database.db.campaign.count(), before);
}

/** POST /outreaches; answers its id. */
export async function createOutreach(env: WorkflowEnv, uniqueContacts: boolean, token = env.a.token): Promise<string> {
  const res = await call(env, "POST", "/outreaches", { token, body: { name: `Outreach ${randomUUID().slice(0, 8)}`, unique_contacts: uniqueContacts } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** POST /contact_imports with these addresses; answers the import's id. */
export async function importContacts(env: WorkflowEnv, emails: string[], token = env.a.token): Promise<string> {
  const res = await call(env, "POST", "/contact_imports", { token, body: { name: "fixture", contacts: emails.map((email) => ({ email, first_name: "Fix" })) } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** n fresh distinct addresses. */
export function emails(n: number, tag = "c"): string[] {
  const run = randomUUID().slice(0, 8);
  return Array.from({ length: n }, (_, i) => `${tag}-${run}-${i}@example.com`);
}

/** The account's contacts with these addresses, by address. */
export async function contactsByEmail(env: WorkflowEnv, accountId: string, addresses: string[]): Promise<Map<string, { id: string; email: string }>> {
  const rows = await env.api.database.db.contact.findMany({ where: { accountId, email: { in: addresses } }, select: { id: true, email: true } });
  return new Map(rows.map((row) => [row.email, row]));
}

/**
 * A second, independent producer connection on the API's queue (same prefix),
 * to see what the API enqueued: waiting and delayed jobs.
 */
export class QueueProbe<N extends QueueName> {
  private readonly connection;
  private readonly typed: TypedQueue<N>;

  constructor(env: WorkflowEnv, name: N) {
    this.connection = createRedis(env.api.config, "producer");
    this.typed = new TypedQueue(name, env.api.config, this.connection);
  }

  async jobs(): Promise<Array<QueuePayloads[N]>> {
    const jobs = await this.typed.queue.getJobs(["waiting", "delayed"]);
    return jobs.map((job) => job.data as QueuePayloads[N]);
  }

  /** Empties the queue between tests. */
  async drain(): Promise<void> {
    await this.typed.queue.drain(true);
  }

  async close(): Promise<void> {
    await this.typed.close();
    await this.connection.quit();
  }
}

/** Today's UTC day as a Date at midnight (what a @db.Date column stores). */
export function utcMidnight(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
