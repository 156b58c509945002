import { runWorkerMain } from "@outreach/runtime";
import { webhookDelivererWorker } from "./worker.js";

await runWorkerMain(webhookDelivererWorker);
