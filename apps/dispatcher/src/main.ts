import { setFlagsFromString } from "node:v8";
import { runWorkerMain } from "@outreach/runtime";
import { dispatcherWorker } from "./worker.js";

// Keeps WebAssembly (the database client's query compiler) on V8's baseline tier:
// recompiling it with the optimising tier costs about 40 MB of resident memory for no
// measurable gain in planning speed (bench/results/dispatch-memory.json). Set here, before
// any module is compiled, because NODE_OPTIONS does not accept this flag.
setFlagsFromString("--liftoff-only");

await runWorkerMain(dispatcherWorker);
