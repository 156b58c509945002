import { runWorkerMain } from "@outreach/runtime";
import { dispatcherWorker } from "./worker.js";

await runWorkerMain(dispatcherWorker);
