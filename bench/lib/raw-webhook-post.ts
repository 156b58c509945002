// The physical limit for bench/webhooks.ts, run as its own process like the deliverer:
// `count` POSTs of envelopes built as the deliverer builds them (buildEnvelope, same
// headers, a signature header of the same shape), with plain undici (a keep-alive
// Agent), `concurrency` at a time, spread round-robin over the given URLs; no
// database, no queue, no signing per request.
//   node --import tsx bench/lib/raw-webhook-post.ts <url[,url...]> <count> [concurrency=10]
// Prints one JSON line: { count, concurrency, urls, ms, per_second, body_bytes, non_2xx }.
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildEnvelope, WEBHOOK_USER_AGENT } from "@outreach/domain";
import { REPO_ROOT } from "@outreach/testing";
import { benchEventData } from "./webhook-bench.js";

// the undici the deliverer uses (packages/domain's own copy; the workspace root does not list it)
interface Undici {
  Agent: new (options: Record<string, unknown>) => { close(): Promise<void> };
  request(url: string, options: Record<string, unknown>): Promise<{ statusCode: number; body: { text(): Promise<string> } }>;
}
const { Agent, request } = createRequire(join(REPO_ROOT, "packages/domain/package.json"))("undici") as Undici;

const [urlsArg = "", countArg = "5000", concurrencyArg = "10"] = process.argv.slice(2);
const urls = urlsArg.split(",").filter(Boolean);
const count = Number(countArg);
const concurrency = Number(concurrencyArg);
if (urls.length === 0 || !(count > 0) || !(concurrency > 0)) throw new Error("usage: raw-webhook-post.ts <url[,url...]> <count> [concurrency]");

const agent = new Agent({ keepAliveTimeout: 30_000 });
const accountId = randomUUID();
const signature = `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`;
const body = (i: number) => buildEnvelope({ deliveryId: randomUUID(), accountId, webhookId: randomUUID(), eventType: "enrollment.sent", createdAt: new Date(), data: benchEventData(i) });

let next = 0;
let non2xx = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const res = await request(urls[i % urls.length]!, {
        method: "POST",
        dispatcher: agent,
        headers: { "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT, "x-service-signature": signature },
        body: body(i),
      });
      await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) non2xx++;
    }
  }),
);
const ms = performance.now() - started;
await agent.close();
console.log(JSON.stringify({ count, concurrency, urls: urls.length, ms: Math.round(ms), per_second: Math.round(count / (ms / 1000)), body_bytes: Buffer.byteLength(body(0)), non_2xx: non2xx }));
