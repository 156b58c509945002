import { notBuiltYet, type WorkerDefinition } from "@outreach/runtime";

export const webhookDelivererWorker: WorkerDefinition = {
  app: "webhook-deliverer",
  processors: () => [
    { queue: "event-fanout", handler: notBuiltYet("event-fanout"), concurrency: 10 },
    { queue: "webhook-delivery", handler: notBuiltYet("webhook-delivery"), concurrency: 50 },
  ],
};
