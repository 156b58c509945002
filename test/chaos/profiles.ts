import type { FaultPlan } from "./faults.js";
import type { LoadProfile } from "./load.js";
import type { Replicas } from "./topology.js";

/** A chaos run's size: the processes, the load, the faults and how long to wait for quiescence. */
export interface ChaosProfile {
  name: string;
  replicas: Replicas;
  load: LoadProfile;
  faults: FaultPlan;
  /** accounts are dispatched one after another over this share of the fault phase */
  dispatchSpread: number;
  quiescenceLimitMs: number;
}

/** `npm run chaos`: every app replicated, minutes of faults of every kind. */
export const FULL_RUN: ChaosProfile = {
  name: "full",
  replicas: { api: 2, dispatcher: 2, sender: 3, "imap-poller": 2, "webhook-deliverer": 2 },
  load: { accounts: 8, inboxesPerAccount: 2, contactsPerAccount: 80, followUpDelayMinutes: 1, replyShare: 0.15 },
  faults: {
    durationMs: 5 * 60_000,
    gapMs: [1_000, 5_000],
    stopMs: [18_000, 25_000],
    cutMs: [1_000, 4_000],
    weights: { kill: 5, stop: 2, "redis-restart": 2, "postgres-restart": 2, "cut-redis": 2, "cut-postgres": 2, redeliver: 2 },
  },
  dispatchSpread: 0.6,
  quiescenceLimitMs: 8 * 60_000,
};

/** The version inside `npm test`: fewer processes (still two of each engine app), a smaller load, the cheap faults. */
export const SHORT_RUN: ChaosProfile = {
  name: "short",
  replicas: { api: 2, dispatcher: 2, sender: 2, "imap-poller": 1, "webhook-deliverer": 1 },
  load: { accounts: 3, inboxesPerAccount: 1, contactsPerAccount: 15, followUpDelayMinutes: 0, replyShare: 0.2 },
  faults: {
    durationMs: 25_000,
    gapMs: [500, 1_500],
    stopMs: [16_000, 17_000],
    cutMs: [500, 1_500],
    weights: { kill: 1, stop: 1, "redis-restart": 1, "postgres-restart": 1, "cut-redis": 1, "cut-postgres": 1, redeliver: 1 },
    // an API process takes longest to start again: the full run kills those
    targets: ["dispatcher", "sender", "imap-poller", "webhook-deliverer"],
    sequence: ["kill", "kill", "stop", "redis-restart", "postgres-restart", "cut-redis", "cut-postgres", "redeliver", "redeliver"],
  },
  dispatchSpread: 0.8,
  quiescenceLimitMs: 60_000,
};
