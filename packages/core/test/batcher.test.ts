import assert from "node:assert/strict";
import { test } from "node:test";
import { Batcher } from "../src/batcher.js";

test("a call alone is flushed at once; calls made during a flush share the next one, each getting its own result", async () => {
  const flushes: number[][] = [];
  let release: (() => void) | undefined;
  const batcher = new Batcher<number, number>(async (items) => {
    flushes.push(items);
    if (flushes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    return items.map((i) => i * 10);
  });
  const first = batcher.run(1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(flushes, [[1]], "the first call did not wait for company");
  const rest = [batcher.run(2), batcher.run(3), batcher.run(4)];
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(flushes.length, 1, "nothing more is flushed while one flush is under way");
  release!();
  assert.deepEqual(await Promise.all([first, ...rest]), [10, 20, 30, 40]);
  assert.deepEqual(flushes, [[1], [2, 3, 4]]);
});

test("a failed flush rejects its own calls only, and a flush that throws synchronously does too", async () => {
  let calls = 0;
  const batcher = new Batcher<number, number>((items) => {
    calls += 1;
    if (calls === 1) throw new Error("down");
    return Promise.resolve(items);
  });
  await assert.rejects(batcher.run(1), /down/);
  assert.equal(await batcher.run(2), 2, "the next call is flushed normally");
});

test("batches are capped at maxBatch", async () => {
  const sizes: number[] = [];
  const batcher = new Batcher<number, number>(async (items) => {
    sizes.push(items.length);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return items;
  }, 3);
  await Promise.all(Array.from({ length: 8 }, (_, i) => batcher.run(i)));
  assert.ok(
    sizes.every((n) => n <= 3),
    `every batch at most 3: ${sizes.join(",")}`,
  );
  assert.equal(
    sizes.reduce((a, b) => a + b, 0),
    8,
  );
});
