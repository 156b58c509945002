import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/*
 * Process tuning for the dispatcher: a full collection between planning
 * chunks. Planning a chunk allocates a few MB that live through its
 * transaction, so the young generation promotes them; V8 then lets the old
 * generation grow to several times its live size before it collects, which a
 * pod's memory limit sees as growth with the batch (bench/results/dispatch-memory.json).
 * The planning code only calls the hook it is given (DispatcherContext.afterChunk);
 * the worker's wiring passes this one.
 */

/** V8's full collection, where the runtime allows one (exposed with --expose-gc, or turned on here). */
function fullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    setFlagsFromString("--expose-gc");
    return runInNewContext("gc") as () => void;
  } catch {
    // a runtime that refuses the flag: no compaction, the heap grows as V8 decides
    return null;
  }
}

/** Heap growth allowed between chunks before a collection: a few chunks' garbage. */
export const HEAP_SLACK_BYTES = 16 * 1024 * 1024;

/** A hook to call after each chunk: collects when the heap grew by more than the slack since the last collection. */
export function heapCompactor(slackBytes = HEAP_SLACK_BYTES): () => void {
  const collect = fullCollection();
  if (!collect) return () => undefined;
  let liveHeapBytes = getHeapStatistics().used_heap_size;
  return () => {
    if (getHeapStatistics().used_heap_size < liveHeapBytes + slackBytes) return;
    collect();
    liveHeapBytes = getHeapStatistics().used_heap_size;
  };
}
