import { setTimeout as delay } from "node:timers/promises";

/** Runs `fn` until it stops failing (the run's own database connection is cut by the PostgreSQL restarts too). */
export async function retried<T>(fn: () => Promise<T>, attempts = 120): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts) throw err;
      await delay(250);
    }
  }
}
