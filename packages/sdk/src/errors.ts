import type { components, operations } from "./generated/schema.js";

/** The body of every error answer: branch on `code`. */
export type ErrorEnvelope = components["schemas"]["Error"];

type JsonBodiesOf<Operation> = Operation extends { responses: infer Responses }
  ? { [Status in keyof Responses]: Responses[Status] extends { content: { "application/json": infer Body } } ? Body : never }[keyof Responses]
  : never;

/** Every error code the API's document names. */
export type KnownErrorCode = NonNullable<Extract<JsonBodiesOf<operations[keyof operations]>, ErrorEnvelope>["code"]>;

/** A known code (for completion), or any other string a newer API may answer. */
export type ErrorCode = KnownErrorCode | (string & {});

/** The code of an error answer whose body is not the API's envelope (a proxy's page, say). */
export const UNEXPECTED_RESPONSE = "unexpected_response";

/** The API answered with a status other than 2xx (after any retries). */
export class OutreachApiError extends Error {
  override readonly name = "OutreachApiError";
  readonly status: number;
  readonly code: ErrorCode;
  /** the URL of the code's documentation page */
  readonly type: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  /** X-Request-Id of the answer: quote it when reporting a problem */
  readonly requestId: string | undefined;
  /** the envelope as answered; undefined when the body was not one */
  readonly envelope: ErrorEnvelope | undefined;
  readonly headers: Headers;

  constructor(status: number, headers: Headers, envelope: ErrorEnvelope | undefined, bodyText = "") {
    super(envelope?.message ?? `HTTP ${status}${bodyText ? `: ${bodyText.slice(0, 200)}` : ""}`);
    this.status = status;
    this.headers = headers;
    this.envelope = envelope;
    this.code = envelope?.code ?? UNEXPECTED_RESPONSE;
    this.type = envelope?.type;
    this.details = envelope?.details;
    this.requestId = headers.get("x-request-id") ?? envelope?.request_id;
  }

  /** Reads the answer's body (consuming it) into an error. */
  static async fromResponse(response: Response): Promise<OutreachApiError> {
    const text = await response.text().catch(() => "");
    return new OutreachApiError(response.status, response.headers, parseEnvelope(text), text);
  }
}

function parseEnvelope(text: string): ErrorEnvelope | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const { code, message } = body as Record<string, unknown>;
  return typeof code === "string" && typeof message === "string" ? (body as ErrorEnvelope) : undefined;
}

/**
 * True when `error` is an API error, and (when codes are given) one of those
 * codes: `if (isApiError(err, "campaign_not_active")) ...`.
 */
export function isApiError<Code extends ErrorCode>(error: unknown, ...codes: Code[]): error is OutreachApiError & { code: Code } {
  return error instanceof OutreachApiError && (codes.length === 0 || (codes as string[]).includes(error.code));
}

/** No answer came back: the connection failed or timed out on every attempt. */
export class OutreachNetworkError extends Error {
  override readonly name = "OutreachNetworkError";
  /** how many times the request was sent */
  readonly attempts: number;

  constructor(message: string, attempts: number, cause: unknown) {
    super(message, { cause });
    this.attempts = attempts;
  }
}
