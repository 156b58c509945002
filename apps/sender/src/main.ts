import { runWorkerMain } from "@outreach/runtime";
import { senderWorker } from "./worker.js";

await runWorkerMain(senderWorker);
