/** One request as the fuzz sends it, and the answer. */
export interface SentRequest {
  method: string;
  /** path and query, as sent */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

const TIMEOUT_MS = 30_000;

/** Sends a request exactly as given (no redirects followed); a network failure is thrown. */
export async function send(baseUrl: string, request: SentRequest): Promise<Answer> {
  const res = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: "manual",
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = request.method === "HEAD" ? "" : await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** A JSON call that must succeed with `expected` (fixtures): answers the parsed body. */
export async function callJson(baseUrl: string, method: string, path: string, token: string | undefined, body: unknown, expected: number[] = [200, 201]): Promise<any> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const answer = await send(baseUrl, { method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!expected.includes(answer.status)) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  return answer.text ? JSON.parse(answer.text) : undefined;
}

/** The request for a report: the key replaced by a placeholder, a long body cut. */
export function describeRequest(request: SentRequest, secrets: Record<string, string> = {}, bodyLimit = 1500): string {
  const hide = (text: string) => Object.entries(secrets).reduce((out, [name, secret]) => (secret ? out.split(secret).join(`<${name}>`) : out), text);
  const lines = [`${request.method} ${hide(request.path)}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${hide(value)}`);
  if (request.body !== undefined) {
    const body = hide(request.body);
    lines.push("", body.length > bodyLimit ? `${body.slice(0, bodyLimit)}... (${body.length} characters in all)` : body);
  }
  return lines.join("\n");
}
