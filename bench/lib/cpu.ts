// CPU and memory readings from /proc: per process, per command, per PostgreSQL
// backend, the whole machine, and a meter over a phase.
import { readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";
import type { AppProcess } from "@outreach/testing";
import { round } from "./numbers.js";

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used, or null when /proc cannot tell. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak), or null. */
export function procStatusMb(pid: number | undefined, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds of all processes with this command name (postgres backends, redis-server): read-only /proc scan. */
export function cpuSecondsOfCommand(comm: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (name !== comm) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // own time plus the time of children it waited for (exited backends are counted by the postmaster)
      total += (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / TICKS;
    } catch {
      // the process went away
    }
  }
  return total;
}

/**
 * CPU seconds of each live PostgreSQL backend, with the database it is connected
 * to; the ps title of a backend is "postgres: <cluster>: <user> <database> <client> <state>".
 */
export function backendCpu(): Map<number, { database: string; seconds: number }> {
  const result = new Map<number, { database: string; seconds: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      const match = title.match(/^postgres: \S+: \S+ (\S+) (\S+\(\d+\)|\[local\])/);
      if (match) result.set(Number(entry), { database: match[1]!, seconds: cpuSeconds(Number(entry)) ?? 0 });
    } catch {
      // the process went away
    }
  }
  return result;
}

/** Busy and total CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineCpu(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

/**
 * CPU used during a phase: each of our processes, PostgreSQL, Redis, this
 * benchmark process (the sink), and the whole machine (2 cores = 200 %).
 */
export class CpuMeter {
  private startedAt = 0;
  private start: Record<string, number> = {};
  private startBackends = new Map<number, { database: string; seconds: number }>();
  private machine = { busy: 0, total: 0 };

  constructor(
    private readonly processes: Record<string, AppProcess | undefined>,
    /** the benchmark's database: its backends are reported apart from those of other databases */
    private readonly database?: string,
  ) {}

  private sample(): Record<string, number> {
    const sample: Record<string, number> = {
      postgres_all: cpuSecondsOfCommand("postgres"),
      redis: cpuSecondsOfCommand("redis-server"),
      bench_process_and_sink: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6,
    };
    for (const [name, app] of Object.entries(this.processes)) sample[name] = cpuSeconds(app?.child.pid) ?? 0;
    return sample;
  }

  begin(): void {
    this.startedAt = performance.now();
    this.start = this.sample();
    this.startBackends = backendCpu();
    this.machine = machineCpu();
  }

  /** percent of one core per process over the phase, and the whole machine */
  end(): Record<string, number> {
    const seconds = (performance.now() - this.startedAt) / 1000;
    const now = this.sample();
    const machine = machineCpu();
    const result: Record<string, number> = {};
    for (const [name, value] of Object.entries(now)) result[`${name}_pct`] = round((100 * Math.max(0, value - (this.start[name] ?? 0))) / seconds);
    if (this.database) {
      // backends alive at the end; one that started during the phase counts from zero
      // (a backend that exited during the phase is not counted: an underestimate)
      let ours = 0;
      let others = 0;
      for (const [pid, backend] of backendCpu()) {
        const before = this.startBackends.get(pid);
        const used = backend.seconds - (before && before.database === backend.database ? before.seconds : 0);
        if (backend.database === this.database) ours += used;
        else others += used;
      }
      result.postgres_backends_of_this_db_pct = round((100 * ours) / seconds);
      result.postgres_backends_of_other_dbs_pct = round((100 * others) / seconds);
    }
    const busyPct = (100 * (machine.busy - this.machine.busy)) / (machine.total - this.machine.total);
    result.machine_busy_pct_of_all_cores = round(busyPct);
    // the rest of the machine's busy time (in % of one core): other work on this host, the kernel
    const ours = Object.keys(now).reduce((sum, name) => sum + (result[`${name}_pct`] ?? 0), 0);
    result.everything_else_pct = round(busyPct * cpus().length - ours);
    return result;
  }
}
