/** Adds calendar months in UTC, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

export interface BillingPeriod {
  start: Date;
  end: Date;
}

/**
 * The billing period containing `now`. The stored period comes from the payment
 * provider for paid plans; free accounts (and lapsed ones) roll forward monthly
 * from the stored start, so a period never needs a job to advance it.
 */
export function currentBillingPeriod(stored: BillingPeriod, now: Date = new Date()): BillingPeriod {
  if (now >= stored.start && now < stored.end) return stored;
  if (now < stored.start) return stored;
  let months = 0;
  let start = stored.start;
  let end = stored.end;
  while (now >= end) {
    months++;
    start = addMonths(stored.start, months);
    end = addMonths(stored.start, months + 1);
  }
  return { start, end };
}
