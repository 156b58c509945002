import { runWorkerMain } from "@outreach/runtime";
import { imapPollerWorker } from "./worker.js";

await runWorkerMain(imapPollerWorker);
