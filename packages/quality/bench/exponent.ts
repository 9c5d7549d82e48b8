/**
 * The growth exponent of a benchmark: the slope of log(value) over log(size), by least squares (1 = linear,
 * 2 = quadratic). Values under `floor` count as `floor`, so a size measured as 0 does not break the log.
 * Shared by the growth benchmarks (this package's `growth.ts`, the server's `growth-glossary.ts`).
 */
export function growthExponent(sizes: readonly number[], values: readonly number[], floor = 1e-3): number {
  const xs = sizes.map(Math.log);
  const ys = values.map((value) => Math.log(Math.max(value, floor)));
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}
