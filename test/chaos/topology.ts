import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAppProcess, type AppDir, type AppProcess } from "@outreach/testing";

/** How many processes of each app run. */
export type Replicas = Record<AppDir, number>;

/** One running replica of an app, under a stable name (e.g. "sender-2") across its restarts. */
export interface AppSlot {
  name: string;
  app: AppDir;
  process: AppProcess;
  /** SIGSTOPped right now (not answering, holding whatever it held) */
  stopped: boolean;
  restarts: number;
  /** output of the processes killed before this one */
  earlier: string;
}

export interface Topology {
  slots: AppSlot[];
  /** the API replicas' base URLs as they are now (a restarted replica listens on a new port) */
  apiUrls(): string[];
  /** SIGKILL, then a new process in the slot; resolves once it is ready */
  killAndRestart(slot: AppSlot): Promise<void>;
  stop(slot: AppSlot): void;
  resume(slot: AppSlot): void;
  /** every process answers /readyz 200 */
  allReady(): Promise<boolean>;
  /** output of every process, for a failure's report */
  outputs(): string;
  /** writes each slot's whole output (every process it had) to <dir>/<slot>.log */
  writeLogs(dir: string): void;
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

async function isReady(slot: AppSlot): Promise<boolean> {
  try {
    const res = await fetch(`${slot.process.baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Starts every replica as its own OS process (node + tsx from source), all with the same environment. */
export async function startTopology(replicas: Replicas, env: Record<string, string>): Promise<Topology> {
  const start = (app: AppDir) => startAppProcess(app, { env, timeoutMs: START_TIMEOUT_MS });
  const slots: AppSlot[] = [];
  const order: AppDir[] = ["api", "dispatcher", "sender", "imap-poller", "webhook-deliverer"];
  try {
    // a few at a time: tsx compiling eleven processes at once starves a small machine
    for (const app of order) {
      const processes = await Promise.all(Array.from({ length: replicas[app] }, () => start(app)));
      processes.forEach((process, i) => slots.push({ name: `${app}-${i + 1}`, app, process, stopped: false, restarts: 0, earlier: "" }));
    }
  } catch (err) {
    await Promise.all(slots.map((s) => s.process.stop("SIGKILL")));
    throw err;
  }
  // a driver that dies without close() must not leave its processes behind
  const killOnExit = () => slots.forEach((s) => s.process.child.kill("SIGKILL"));
  process.once("exit", killOnExit);
  const resume = (slot: AppSlot) => {
    slot.process.child.kill("SIGCONT");
    slot.stopped = false;
  };
  return {
    slots,
    apiUrls: () => slots.filter((s) => s.app === "api").map((s) => s.process.baseUrl),
    async killAndRestart(slot) {
      if (slot.stopped) resume(slot);
      await slot.process.stop("SIGKILL");
      slot.earlier += `${slot.process.output()}\n=== SIGKILL, restarted ===\n`;
      slot.process = await start(slot.app);
      slot.restarts += 1;
    },
    stop(slot) {
      slot.process.child.kill("SIGSTOP");
      slot.stopped = true;
    },
    resume,
    writeLogs(dir) {
      mkdirSync(dir, { recursive: true });
      for (const slot of slots) writeFileSync(join(dir, `${slot.name}.log`), slot.earlier + slot.process.output());
    },
    async allReady() {
      return (await Promise.all(slots.map(isReady))).every(Boolean);
    },
    outputs: () => slots.map((s) => `--- ${s.name} (${s.restarts} restarts) ---\n${s.process.output().slice(-4_000)}`).join("\n"),
    async close() {
      process.removeListener("exit", killOnExit);
      for (const slot of slots) if (slot.stopped) resume(slot);
      await Promise.all(slots.map((s) => s.process.stop("SIGTERM", 10_000)));
    },
  };
}
