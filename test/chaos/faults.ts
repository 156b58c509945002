import { setTimeout as delay } from "node:timers/promises";
import type { AppDir } from "@outreach/testing";
import type { ChaosInfrastructure } from "./infra.js";
import type { AppSlot, Topology } from "./topology.js";

export type FaultKind = "kill" | "stop" | "redis-restart" | "postgres-restart" | "cut-redis" | "cut-postgres" | "redeliver";

/** One fault the driver made, and how long the system took to heal from it. */
export interface FaultRecord {
  kind: FaultKind;
  /** the process it hit (kill, stop), or how many send jobs were delivered again (redeliver) */
  target?: string;
  /** ms since the run's start */
  at: number;
  /** how long the fault lasted (the process stopped, the connections cut, the server away) */
  durationMs: number;
  /** from the fault's end until every process answered /readyz 200 again (null: not within the limit) */
  readyAfterMs: number | null;
  /** from the fault's end until the next email reached the SMTP server or the next webhook was answered 2xx (filled in at the end) */
  progressAfterMs?: number | null;
}

export interface FaultPlan {
  /** how long faults are made for (without a sequence) */
  durationMs: number;
  /** pause between two faults, drawn in [min, max] */
  gapMs: [number, number];
  /** longer than the leases (sender liveness and sessions 15 s, inbox leases 6 s, webhook leases 15 s) */
  stopMs: [number, number];
  cutMs: [number, number];
  /** relative weights of the kinds drawn at random (0: never) */
  weights: Record<FaultKind, number>;
  /** the apps whose processes are killed and stopped (all when absent) */
  targets?: AppDir[];
  /** instead of drawing: exactly these kinds, in an order the seed shuffles (a short run still makes each kind) */
  sequence?: FaultKind[];
}

const READY_LIMIT_MS = 120_000;

export class FaultDriver {
  readonly records: FaultRecord[] = [];

  constructor(
    private readonly random: () => number,
    private readonly topology: Topology,
    private readonly infra: ChaosInfrastructure,
    private readonly plan: FaultPlan,
    private readonly startedAt: number,
    private readonly log: (line: string) => void,
    /** delivers the jobs of some sends already sent or being sent again; answers how many */
    private readonly redeliver: () => Promise<number> = async () => 0,
  ) {}

  /** Faults one after another until the plan's duration is spent (or `stopped` says so); each waits for the system to be ready again. */
  async run(stopped: () => boolean): Promise<void> {
    const end = Date.now() + this.plan.durationMs;
    const sequence = this.plan.sequence ? this.shuffled(this.plan.sequence) : undefined;
    while (!stopped() && (sequence ? sequence.length > 0 : Date.now() < end)) {
      await delay(this.between(this.plan.gapMs));
      await this.one(sequence ? sequence.shift()! : this.pickKind());
    }
  }

  private shuffled<T>(items: T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  private between([min, max]: [number, number]): number {
    return Math.round(min + this.random() * (max - min));
  }

  private pickKind(): FaultKind {
    const entries = Object.entries(this.plan.weights) as Array<[FaultKind, number]>;
    let roll = this.random() * entries.reduce((n, [, w]) => n + w, 0);
    for (const [kind, weight] of entries) {
      roll -= weight;
      if (roll < 0) return kind;
    }
    return entries[0]![0];
  }

  private pickSlot(): AppSlot {
    const targets = this.plan.targets;
    const slots = this.topology.slots.filter((s) => !targets || targets.includes(s.app));
    return slots[Math.floor(this.random() * slots.length)]!;
  }

  async one(kind: FaultKind): Promise<FaultRecord> {
    const at = Date.now();
    let target: string | undefined;
    switch (kind) {
      case "kill": {
        const slot = this.pickSlot();
        target = slot.name;
        await this.topology.killAndRestart(slot);
        break;
      }
      case "stop": {
        const slot = this.pickSlot();
        target = slot.name;
        this.topology.stop(slot);
        await delay(this.between(this.plan.stopMs));
        this.topology.resume(slot);
        break;
      }
      case "redis-restart":
        await this.infra.redis.restart();
        break;
      case "postgres-restart":
        await this.infra.postgres.restart();
        break;
      case "cut-redis":
      case "cut-postgres": {
        const proxy = kind === "cut-redis" ? this.infra.redisProxy : this.infra.pgProxy;
        proxy.cut();
        await delay(this.between(this.plan.cutMs));
        proxy.resume();
        break;
      }
      case "redeliver":
        target = `${await this.redeliver()} send jobs`;
        break;
    }
    const healStart = Date.now();
    let readyAfterMs: number | null = null;
    while (Date.now() - healStart < READY_LIMIT_MS) {
      if (await this.topology.allReady()) {
        readyAfterMs = Date.now() - healStart;
        break;
      }
      await delay(100);
    }
    const record: FaultRecord = { kind, target, at: at - this.startedAt, durationMs: healStart - at, readyAfterMs };
    this.records.push(record);
    this.log(`fault ${kind}${target ? ` ${target}` : ""}: ${record.durationMs} ms, ready ${readyAfterMs ?? "never"} ms later`);
    return record;
  }
}
