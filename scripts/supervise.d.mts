// Types of scripts/supervise.mjs, for the tests that import it.
export interface SupervisedApp {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}
export interface Backoff {
  initialMs: number;
  maxMs: number;
  stableMs: number;
}
export interface Supervisor {
  pids(): Record<string, number>;
  isStopping(): boolean;
  stop(reason: string): Promise<void>;
  readonly stopped: Promise<void>;
}
export interface SuperviseOptions {
  backoff?: Partial<Backoff>;
  log?: (message: string) => void;
  stdio?: import("node:child_process").StdioOptions;
}
export const DEFAULT_BACKOFF: Backoff;
export function supervise(apps: SupervisedApp[], options?: SuperviseOptions): Supervisor;
export function superviseUntilSignalled(apps: SupervisedApp[], options?: SuperviseOptions): Supervisor;
