// Rounding and extremes of the figures.
export const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
/** Math.min / Math.max without spreading a large array onto the stack */
export const minOf = (values: number[]) => values.reduce((a, b) => (b < a ? b : a), Infinity);
export const maxOf = (values: number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);
