// Rounding and extremes of the figures.
export const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Math.min / Math.max without spreading a large array onto the stack */
export const minOf = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);
export const maxOf = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
