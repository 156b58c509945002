import assert from "node:assert/strict";
import { test } from "node:test";
import { dovecotUnavailableReason, skipWithoutSystemServer } from "@outreach/testing";
import { describeClaims, runChaos } from "./chaos-run.js";
import { SHORT_RUN } from "./profiles.js";

// The chaos run in small: two of each engine app as processes on private PostgreSQL and Redis behind proxies,
// kills, a stop past the leases, restarts of both servers and cut connections while three accounts send
// three-step campaigns, get replies and webhooks, and retry idempotent requests across the API replicas.
test("short chaos run: nothing sent twice, nothing lost, every reply and event through", { skip: skipWithoutSystemServer("Dovecot", dovecotUnavailableReason()), timeout: 420_000 }, async () => {
  const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const lines: string[] = [];
  const result = await runChaos(SHORT_RUN, seed, (line) => lines.push(line));
  assert.ok(result.ok, `seed ${seed}\n${describeClaims(result)}\n${lines.join("\n")}`);
  assert.ok(result.counts["sent and received"]! > 0, "emails went out");
  assert.ok(result.counts["events delivered"]! > 0, "events were delivered");
  assert.equal(result.faults.length, SHORT_RUN.faults.sequence!.length, "every planned fault was made");
});
