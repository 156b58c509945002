/** A credential's ramp-up: start at startPerDay step-1 sends on the day it started, add increasePerDay each day after. */
export interface Ramp {
  startPerDay: number;
  increasePerDay: number;
  startedAt: Date;
}

const DAY_MS = 86_400_000;

/**
 * The step-1 sends a credential may make on `day` ("YYYY-MM-DD"): its
 * daily_limit, lowered by its ramp on the k-th day since the ramp started
 * (k = 0 on the UTC date of rampStartedAt) to startPerDay + k * increasePerDay.
 */
export function dailyLimitOn(dailyLimit: number, ramp: Ramp | null | undefined, day: string): number {
  if (!ramp) return dailyLimit;
  const k = Math.max(0, Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${ramp.startedAt.toISOString().slice(0, 10)}T00:00:00Z`)) / DAY_MS));
  return Math.min(dailyLimit, ramp.startPerDay + k * ramp.increasePerDay);
}

/** The ramp of a smtp_credentials row, or null when it has none. */
export function credentialRamp(row: { rampStartPerDay: number | null; rampIncreasePerDay: number | null; rampStartedAt: Date | null }): Ramp | null {
  if (row.rampStartPerDay === null || row.rampIncreasePerDay === null || row.rampStartedAt === null) return null;
  return { startPerDay: row.rampStartPerDay, increasePerDay: row.rampIncreasePerDay, startedAt: row.rampStartedAt };
}
