import assert from "node:assert/strict";
import { test } from "node:test";
import { AppMetrics, databaseGauge } from "../src/metrics.js";

test("a failed database read leaves the database gauges out, not the process series", async () => {
  const metrics = new AppMetrics("dispatcher");
  let failing = true;
  databaseGauge(metrics, { name: "outreach_test_backlog", help: "test" }, async () => {
    if (failing) throw new Error("connection refused");
    return [{ value: 7 }];
  });
  const errors: string[] = [];
  const text = await metrics.render((err) => errors.push(err.message));
  assert.deepEqual(errors, ["connection refused"]);
  assert.match(text, /^process_cpu_user_seconds_total /m, "the process series are there");
  assert.doesNotMatch(text, /outreach_test_backlog/);

  failing = false;
  assert.match(await metrics.render(), /^outreach_test_backlog 7$/m, "and the gauges are back once the read works");
  metrics.exportsDatabase = () => false;
  assert.doesNotMatch(await metrics.render(), /outreach_test_backlog/, "a replica without the lease never exports them");
});
