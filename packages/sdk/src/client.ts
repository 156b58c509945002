import createFetchClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/schema.js";
import { nextPageUrl } from "./pagination.js";
import { createTransport, defaultSleep, type FetchFunction, type SleepFunction } from "./transport.js";
import type { ApiMethod, ApiResult, ListInit, ListItem, ListPaths, LoosePaths } from "./typed-methods.js";

export interface ClientOptions {
  /** where the API answers, e.g. https://api.example.com */
  baseUrl: string;
  /** sent as `Authorization: Bearer <apiKey>`; leave out for the public endpoints (POST /signup, GET /plans) */
  apiKey?: string;
  /** retries after the first attempt, for network errors, 429 and 500/502/503/504 (default 3; 0 turns retries off) */
  maxRetries?: number;
  /** the fetch to send with (default globalThis.fetch) */
  fetch?: FetchFunction;
  /** gives up on one attempt after this long (a timed-out attempt is retried like a network error); no limit by default */
  timeoutMs?: number;
  /** the longest wait between attempts (default 30 s): caps the backoff, and a longer Retry-After is thrown rather than waited for */
  maxRetryDelayMs?: number;
  /** how the client waits between attempts (default a timer; tests pass one that records the waits) */
  sleep?: SleepFunction;
}

export interface OutreachClient<Paths extends {} = paths> {
  GET: ApiMethod<Paths, "get">;
  POST: ApiMethod<Paths, "post">;
  PATCH: ApiMethod<Paths, "patch">;
  DELETE: ApiMethod<Paths, "delete">;
  /**
   * Every item of a list, page after page: follows `Link: <url>; rel="next"`
   * while the API answers `X-Has-More: true`. The first request takes the
   * same options as GET (`{ params: { query: { limit: 100 } } }`).
   */
  paginate<Path extends ListPaths<Paths>>(path: Path, ...init: ListInit<Paths, Path>): AsyncIterable<ListItem<Paths, Path>>;
  /**
   * The same client without compile-time checks of paths, parameters and
   * bodies (answers are `any`): for an operation newer than the generated types.
   */
  untyped: UntypedClient;
}

/** Calls of any path: parameters and bodies unchecked, answers and list items `any`. */
export type UntypedClient = Omit<OutreachClient<LoosePaths>, "untyped" | "paginate"> & {
  paginate(path: string, ...init: ListInit<LoosePaths, string>): AsyncIterable<any>;
};

const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

/**
 * A client of the API: typed GET/POST/PATCH/DELETE (paths, parameters, bodies
 * and answers from the API's OpenAPI document) that resolve to the 2xx answer
 * and throw OutreachApiError otherwise; retries, Idempotency-Key and the API
 * key are handled by the client (see createTransport).
 */
export function createClient<Paths extends {} = paths>(options: ClientOptions): OutreachClient<Paths> {
  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    timeoutMs: options.timeoutMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    sleep: options.sleep ?? defaultSleep,
  });
  const fetchClient = createFetchClient<LoosePaths>({ baseUrl: options.baseUrl, fetch: transport });
  const untyped = untypedClient(fetchClient, transport);
  return { ...untyped, untyped } as unknown as OutreachClient<Paths>;
}

type LooseInit = { [key: string]: unknown; body?: unknown; signal?: AbortSignal | null };

type LooseMethod = (path: string, init?: LooseInit) => Promise<ApiResult<any>>;
interface UntypedMethods {
  GET: LooseMethod;
  POST: LooseMethod;
  PATCH: LooseMethod;
  DELETE: LooseMethod;
  paginate(path: string, init?: LooseInit): AsyncIterable<unknown>;
}

function untypedClient(fetchClient: Client<LoosePaths>, transport: FetchFunction): UntypedMethods {
  const success = <Data>({ data, response }: { data?: Data; response: Response }): ApiResult<Data> => ({ data: data as Data, response });
  return {
    GET: (path: string, init?: LooseInit) => fetchClient.GET(path, init).then(success),
    POST: (path: string, init?: LooseInit) => fetchClient.POST(path, withSdkClientKind(path, init)).then(success),
    PATCH: (path: string, init?: LooseInit) => fetchClient.PATCH(path, init).then(success),
    DELETE: (path: string, init?: LooseInit) => fetchClient.DELETE(path, init).then(success),
    paginate: (path: string, init?: LooseInit) => paginate(fetchClient, transport, path, init),
  };
}

async function* paginate(fetchClient: Client<LoosePaths>, transport: FetchFunction, path: string, init: LooseInit = {}): AsyncGenerator<unknown> {
  let pageUrl = "";
  const first = await fetchClient.GET(path, {
    ...init,
    fetch: (request: Request) => {
      pageUrl = request.url;
      return transport(request);
    },
  });
  let page: unknown = first.data;
  let headers = first.response.headers;
  for (;;) {
    if (!Array.isArray(page)) throw new Error(`GET ${path} did not answer a list`);
    yield* page;
    const next = nextPageUrl(headers, pageUrl);
    if (next === undefined) return;
    const response = await transport(new Request(next, { method: "GET", signal: init.signal ?? null }));
    page = await response.json();
    headers = response.headers;
    pageUrl = next;
  }
}

/**
 * Keys the SDK creates are attributed to it in the usage report: POST
 * /api_keys without a client_kind gets client_kind "sdk" (the body may be
 * the fields themselves or wrapped as {api_key: {...}}).
 */
function withSdkClientKind(path: string, init: LooseInit | undefined): LooseInit | undefined {
  if (path !== "/api_keys" || !isPlainObject(init?.body)) return init;
  const body = init.body;
  const wrapped = Object.keys(body).length === 1 && isPlainObject(body.api_key);
  const withKind = (fields: Record<string, unknown>) => ({ ...fields, client_kind: fields.client_kind ?? "sdk" });
  return { ...init, body: wrapped ? { api_key: withKind(body.api_key as Record<string, unknown>) } : withKind(body) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
