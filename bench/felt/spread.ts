/** p50, p99 and max of a sample, rounded for printing and the JSON figures. */
export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[], digits = 1): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) =>
    sorted.length === 0
      ? NaN
      : sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
  const round = (value: number) => Number(value.toFixed(digits));
  return { n: sorted.length, p50: round(at(0.5)), p99: round(at(0.99)), max: round(at(1)) };
}

export const showSpread = ({ p50, p99, max, n }: Spread, unit = 'ms') =>
  `p50 ${p50} ${unit}, p99 ${p99} ${unit}, max ${max} ${unit} (n = ${n})`;
