// Preloaded into a benchmarked app (node --import bench/lib/memory-report.mjs): on SIGUSR2 it
// writes where its memory is to BENCH_MEMORY_REPORT (JSON): RSS and its peak, the V8 heap by
// space, memory outside the heap (Buffers, ArrayBuffers, malloc) and the live handles by kind
// (sockets, timers); with BENCH_HEAP_SNAPSHOT_DIR also a heap snapshot there. Benchmarks only.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function statusMb(field) {
  const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  return match ? Math.round(Number(match[1]) / 1024) : null;
}

function report() {
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const handles = {};
  for (const kind of process.getActiveResourcesInfo()) handles[kind] = (handles[kind] ?? 0) + 1;
  return {
    at: new Date().toISOString(),
    rss_mb: statusMb("VmRSS"),
    peak_vmhwm_mb: statusMb("VmHWM"),
    heap_used_mb: mb(usage.heapUsed),
    heap_total_mb: mb(usage.heapTotal),
    external_mb: mb(usage.external),
    array_buffers_mb: mb(usage.arrayBuffers),
    malloced_mb: mb(heap.malloced_memory),
    peak_malloced_mb: mb(heap.peak_malloced_memory),
    heap_spaces_used_mb: Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_used_size)])),
    heap_spaces_size_mb: Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_size)])),
    handles,
  };
}

process.on("SIGUSR2", () => {
  const out = process.env.BENCH_MEMORY_REPORT;
  if (out) writeFileSync(out, JSON.stringify(report()));
  const dir = process.env.BENCH_HEAP_SNAPSHOT_DIR;
  if (dir) v8.writeHeapSnapshot(join(dir, `app-${process.pid}-${Date.now()}.heapsnapshot`));
});
