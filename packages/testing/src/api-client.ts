/** An API answer: status, headers, the body parsed as JSON (undefined when it is not JSON) and the raw text. */
export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A check of every answer (for instance against the OpenAPI document); throws when it fails. */
export type ResponseCheck = (method: string, path: string, res: { status: number; headers: Headers; text: string }) => void;

export interface ApiRequestOptions {
  /** sent as JSON (with content-type application/json unless headers name one) */
  body?: unknown;
  /** sent as is, when there is no `body` */
  rawBody?: string;
  headers?: Record<string, string>;
  /** an API key, sent as Authorization: Bearer */
  token?: string;
  /** runs on every answer before it is returned */
  check?: ResponseCheck;
  /** gives up (rejects) when the whole answer has not arrived within this long */
  timeoutMs?: number;
}

/** One JSON request to the API at `baseUrl`. */
export async function apiRequest<T = any>(baseUrl: string, method: string, path: string, options: ApiRequestOptions = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    // fetch's own message is only "fetch failed": say why (a reset connection, a refused one, ...)
    throw new Error(`${method} ${path}: ${err.message} (${err.cause?.code ?? err.cause?.message ?? "no cause given"})`, { cause: err });
  });
  const text = await res.text();
  options.check?.(method, path, { status: res.status, headers: res.headers, text });
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** A call of an MCP tool through POST /mcp: the HTTP status, the raw answer and the JSON-RPC message (read from JSON or from the event stream's data line). */
export async function callMcpTool(baseUrl: string, token: string, name: string, args: Record<string, unknown>): Promise<{ status: number; text: string; payload: any }> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await res.text();
  const json = text.startsWith("{") ? text : (text.split("\n").find((line) => line.startsWith("data: ")) ?? "").slice(6);
  return { status: res.status, text, payload: JSON.parse(json) };
}
