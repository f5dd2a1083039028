// What the measurements (measure-*.mjs) print their figures with.

/** The value at `fraction` of the sorted values (0.5: the median; 0.99: the 99th percentile). */
export function percentile(values, fraction) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** Milliseconds as the figures print them. */
export const ms = (value) => `${value.toFixed(0)} ms`;
