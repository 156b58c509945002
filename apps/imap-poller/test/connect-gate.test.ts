import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";
import { test } from "node:test";
import { ConnectGate } from "../src/connect-gate.js";

test("the gate opens at most N connections per host and M in all, in arrival order, and a busy host does not hold up another", async () => {
  const gate = new ConnectGate(3, 5);
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  let total = 0;
  let mostTotal = 0;
  const finished: string[] = [];
  const connect = (host: string, i: number) =>
    gate.run(host, async () => {
      open.set(host, (open.get(host) ?? 0) + 1);
      total += 1;
      most.set(host, Math.max(most.get(host) ?? 0, open.get(host)!));
      mostTotal = Math.max(mostTotal, total);
      await delay(host === "slow.example" ? 40 : 5);
      open.set(host, open.get(host)! - 1);
      total -= 1;
      finished.push(`${host}#${i}`);
      return i;
    });
  const slow = Array.from({ length: 12 }, (_, i) => connect("slow.example", i));
  const quick = Array.from({ length: 6 }, (_, i) => connect("quick.example", i));
  assert.deepEqual(await Promise.all(slow), [...Array(12).keys()]);
  assert.deepEqual(await Promise.all(quick), [...Array(6).keys()]);
  assert.equal(most.get("slow.example"), 3);
  assert.ok(mostTotal <= 5, `${mostTotal} open at once`);
  assert.equal(most.get("quick.example")! <= 3, true);
  // the quick host's connections went through while the slow host still had most of its own waiting
  const lastQuick = finished.indexOf("quick.example#5");
  assert.ok(finished.slice(lastQuick).filter((f) => f.startsWith("slow")).length >= 6, finished.join(" "));
  // arrival order within a host
  assert.deepEqual(
    finished
      .filter((f) => f.startsWith("slow"))
      .slice(0, 3)
      .sort(),
    ["slow.example#0", "slow.example#1", "slow.example#2"],
  );
});

test("a failed open frees its slot", async () => {
  const gate = new ConnectGate(1, 1);
  await assert.rejects(
    gate.run("a.example", async () => Promise.reject(new Error("refused"))),
    /refused/,
  );
  assert.equal(await gate.run("a.example", async () => "next"), "next");
});
