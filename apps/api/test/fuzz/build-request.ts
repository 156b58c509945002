import { randomUUID } from "node:crypto";
import { signPayload } from "@outreach/core";
import type { FuzzFixtures } from "./fixtures.js";
import type { SentRequest } from "./http.js";
import { queryKind, type FuzzOperation } from "./operations.js";
import { MAX_HEADER_VALUE, SIGNATURE_HEADERS, type RequestPlan } from "./request-plan.js";

export interface BuildContext {
  token: string;
  /** the run's own key: never put in a path (a DELETE /api_keys/{id} with it would end the run) */
  ownKeyId?: string;
  fixtures: FuzzFixtures;
  signingSecrets: Record<string, string>;
}

export interface BuiltRequest {
  request: SentRequest;
  /** the values put in the path (to notice a DELETE of a kept fixture) */
  pathValues: string[];
  /** what was broken on purpose */
  notes: string[];
}

/** A header value fetch can send: Latin-1 without control characters. */
const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e\x80-\xff]/g, "").slice(0, MAX_HEADER_VALUE);
const wellFormed = (value: string) => (value as string & { toWellFormed(): string }).toWellFormed();

/** Turns a plan into the request to send (making a throwaway fixture for a DELETE). */
export async function buildRequest(operation: FuzzOperation, plan: RequestPlan, context: BuildContext): Promise<BuiltRequest> {
  const notes: string[] = [];
  const pathValues: string[] = [];
  let path = "";
  for (const segment of operation.template.split("/").slice(1)) {
    const match = /^\{(.+)\}$/.exec(segment);
    if (!match) {
      path += `/${segment}`;
      continue;
    }
    const param = operation.pathParams.find((p) => p.name === match[1])!;
    const planned = plan.path[param.name]!;
    let value: string;
    let raw = false;
    if (planned.kind === "fixture") {
      value = (param.kind && (await context.fixtures.value(param.kind, planned.pick, operation.method === "DELETE"))) || planned.fallback;
    } else {
      value = planned.value;
      raw = planned.kind === "junk" && planned.raw;
      if (planned.kind === "junk") notes.push(`path ${param.name}: junk ${JSON.stringify(value).slice(0, 60)}`);
    }
    if (operation.template.startsWith("/api_keys/") && value === context.ownKeyId) value = randomUUID();
    pathValues.push(value);
    path += `/${raw ? value : encodeURIComponent(wellFormed(value))}`;
  }
  const query: string[] = [];
  for (const entry of plan.query) {
    let value: string;
    if ("fixture" in entry) {
      const kind = queryKind(operation, entry.name);
      value = (kind && (await context.fixtures.value(kind, entry.fixture, false))) || entry.fallback;
    } else {
      value = entry.value;
      if (entry.mutation) notes.push(entry.mutation);
    }
    query.push(`${encodeURIComponent(wellFormed(entry.name))}=${encodeURIComponent(wellFormed(value))}`);
  }
  if (query.length) path += `?${query.join("&")}`;

  const headers: Record<string, string> = {};
  if (plan.auth.kind === "key") headers.authorization = `Bearer ${context.token}`;
  if (plan.auth.kind === "bad") {
    headers.authorization = headerSafe(plan.auth.header);
    notes.push("a bad Authorization header");
  }
  if (operation.secured && plan.auth.kind === "none") notes.push("no Authorization header");
  for (const [name, value] of plan.headers) headers[name] = headerSafe(value);
  if (plan.idempotencyKey) {
    const key = plan.idempotencyKey;
    headers["idempotency-key"] = key.kind === "fresh" ? `fuzz-${randomUUID()}` : key.kind === "shared" ? `fuzz-shared-${key.n}` : headerSafe(key.value);
    if (key.kind === "shared") notes.push("an Idempotency-Key shared with other requests");
  }

  let body: string | undefined;
  if (plan.body?.kind === "json") {
    body = JSON.stringify(plan.body.value) ?? "null";
    headers["content-type"] = operation.body?.contentType ?? "application/json";
    if (plan.body.mutation) notes.push(plan.body.mutation);
  } else if (plan.body?.kind === "text") {
    body = plan.body.text;
    headers["content-type"] = plan.body.contentType ?? operation.body?.contentType ?? "application/json";
    if (plan.body.contentEncoding) headers["content-encoding"] = plan.body.contentEncoding;
    notes.push(`body: ${plan.body.what}`);
  }

  const signatureHeader = SIGNATURE_HEADERS[operation.key];
  if (signatureHeader && plan.signature && plan.signature.kind !== "none") {
    const now = Math.floor(Date.now() / 1000);
    const secret = context.signingSecrets[operation.key] ?? "not-the-secret";
    const signature = plan.signature;
    if (signature.kind === "junk") headers[signatureHeader] = headerSafe(signature.value);
    if (signature.kind === "wrong") headers[signatureHeader] = signPayload("not-the-secret", body ?? "", now);
    if (signature.kind === "stale") headers[signatureHeader] = signPayload(secret, body ?? "", now - 3600);
    if (signature.kind === "valid") headers[signatureHeader] = signPayload(secret, body ?? "", now);
    if (signature.kind !== "valid") notes.push(`signature: ${signature.kind}`);
  } else if (signatureHeader) {
    notes.push("signature: none");
  }
  return { request: { method: operation.method, path, headers, body }, pathValues, notes };
}
