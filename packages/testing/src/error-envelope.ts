import assert from "node:assert/strict";

/** The docs URL the tests start the API with (DOCS_URL). */
export const TEST_DOCS_URL = "https://docs.outreach.test";

export interface ErrorEnvelopeOptions {
  /** the docs URL the type is built from (default TEST_DOCS_URL) */
  docsUrl?: string;
  /** names the request in failure messages */
  what?: string;
}

/**
 * The error envelope {code, type, message, details?}: the status, the code,
 * type `${docsUrl}/errors/${code}`, a non-empty message and no stack trace
 * anywhere in the answer. `message`: a string the message must equal, a
 * pattern it must match, or `{ includes }` a part it must contain.
 */
export function assertErrorEnvelope(
  res: { status: number; body: any; text?: string },
  status: number,
  code: string,
  message?: string | RegExp | { includes: string },
  options: ErrorEnvelopeOptions = {},
): void {
  const { docsUrl = TEST_DOCS_URL, what } = options;
  const text = res.text ?? JSON.stringify(res.body);
  const label = (detail: string) => (what ? `${what}: ${detail}` : detail);
  assert.equal(res.status, status, label(`${res.status} ${text}`));
  assert.equal(res.body?.code, code, label(text));
  assert.equal(res.body.type, `${docsUrl}/errors/${code}`, what);
  assert.equal(typeof res.body.message, "string", label("message is a string"));
  assert.ok(res.body.message.length > 0, label("message is not empty"));
  assert.ok(!text.includes("    at "), label(`stack trace in ${text}`));
  if (typeof message === "string") assert.equal(res.body.message, message);
  else if (message instanceof RegExp) assert.match(res.body.message, message);
  else if (message) assert.ok(res.body.message.includes(message.includes), `${JSON.stringify(res.body.message)} should contain ${JSON.stringify(message.includes)}`);
}
