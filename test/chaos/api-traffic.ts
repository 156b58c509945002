import { setTimeout as delay } from "node:timers/promises";
import { apiRequest, type JsonResponse } from "@outreach/testing";

const REQUEST_TIMEOUT_MS = 5_000;

export interface ApiTarget {
  /** the API replicas' base URLs as they are now */
  apiUrls(): string[];
}

/**
 * A request that rides out the faults: an error (a killed replica, a stopped one that never answers, a
 * database away: 5xx, 429) is tried again on the next replica until `accept` takes an answer or the
 * deadline passes. Only for requests whose repeat is harmless (Idempotency-Key, or idempotent by nature).
 */
export async function callUntilAccepted(
  target: ApiTarget,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown | ((attempt: number) => unknown);
    idempotencyKey?: string;
    accept?: (res: JsonResponse) => boolean;
    deadlineMs?: number;
    startAt?: number;
    timeoutMs?: number;
  },
): Promise<JsonResponse> {
  const accept = options.accept ?? ((res) => res.status < 300);
  const deadline = Date.now() + (options.deadlineMs ?? 120_000);
  let last = "";
  for (let attempt = options.startAt ?? 0; Date.now() < deadline; attempt++) {
    const urls = target.apiUrls();
    const url = urls[attempt % urls.length]!;
    try {
      const res = await apiRequest(url, method, path, {
        token: options.token,
        body: typeof options.body === "function" ? options.body(attempt) : options.body,
        headers: options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {},
        timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
      });
      if (accept(res)) return res;
      last = `${res.status} ${res.text.slice(0, 300)}`;
      if (res.status < 500 && res.status !== 429) throw new Error(`${method} ${path} answered ${last}`);
    } catch (err) {
      if ((err as Error).message.includes("answered")) throw err;
      last = (err as Error).message;
    }
    await delay(250);
  }
  throw new Error(`${method} ${path} never succeeded: ${last}`);
}

/** One use of an Idempotency-Key: every attempt made with it, on which replica, and what it answered. */
export interface IdempotentUse {
  key: string;
  attempts: Array<{ replica: number; status: number | string; importId?: string; replay: boolean }>;
}

/**
 * A contact import under an Idempotency-Key, sent to one replica and then, with the same key and body, to the
 * other (a client retrying after a timeout reaches another replica behind the load balancer), again and
 * again until two attempts have been answered 201. The import's name is the key, so the database tells how
 * many times it was acted on.
 */
export async function idempotentImport(target: ApiTarget, token: string, key: string, first: number): Promise<IdempotentUse> {
  const use: IdempotentUse = { key, attempts: [] };
  const body = { name: key, contacts: [{ email: `${key}@example.com`, first_name: "Idem" }] };
  for (let attempt = 0; attempt < 12 && use.attempts.filter((a) => a.status === 201).length < 2; attempt++) {
    const urls = target.apiUrls();
    const replica = (first + attempt) % urls.length;
    try {
      const res = await apiRequest(urls[replica]!, "POST", "/contact_imports", { token, body, headers: { "idempotency-key": key }, timeoutMs: REQUEST_TIMEOUT_MS });
      use.attempts.push({ replica, status: res.status, importId: res.body?.id, replay: res.headers.get("idempotent-replay") === "true" });
    } catch (err) {
      use.attempts.push({ replica, status: (err as Error).message.slice(0, 200), replay: false });
      await delay(200);
    }
  }
  return use;
}
