import { notBuiltYet, type WorkerDefinition } from "@outreach/runtime";

export const imapPollerWorker: WorkerDefinition = {
  app: "imap-poller",
  processors: () => [
    { queue: "imap-poll", handler: notBuiltYet("imap-poll"), concurrency: 10 },
  ],
};
