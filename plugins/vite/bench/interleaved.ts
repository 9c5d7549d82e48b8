/**
 * Interleaved rounds of timed builds, for the build benches (real-apps-build.ts, examples/react-app/bench/build.ts):
 * each round runs every variant once, the order alternating each round; the first `warmup` rounds are not kept.
 */
export type Timing = { wall: number; cpu: number };

export async function interleaved<Name extends string>(
  variants: Record<Name, () => Promise<Timing>>,
  rounds: number,
  warmup: number,
): Promise<{ wall: Record<Name, number[]>; cpu: Record<Name, number[]> }> {
  const names = Object.keys(variants) as Name[];
  const wall = Object.fromEntries(names.map((n) => [n, []])) as unknown as Record<Name, number[]>;
  const cpu = Object.fromEntries(names.map((n) => [n, []])) as unknown as Record<Name, number[]>;
  for (let round = 0; round < rounds + warmup; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const t = await variants[name]();
      if (round >= warmup) {
        wall[name].push(t.wall);
        cpu[name].push(t.cpu);
      }
    }
  }
  return { wall, cpu };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  return s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** `ms` formatted, padded to `width` digits. */
export const ms = (x: number, width = 5) => `${x.toFixed(0).padStart(width)} ms`;

/** The lines giving the medians of wall and CPU time of `plain` and `glossa` and their ratio. */
export function ratioLines(
  times: { wall: Record<'plain' | 'glossa', number[]>; cpu: Record<'plain' | 'glossa', number[]> },
  width = 5,
): string[] {
  return (
    [
      ['wall, median', times.wall],
      ['CPU, median', times.cpu],
    ] as const
  ).map(([label, xs]) => {
    const ratio = median(xs.glossa) / median(xs.plain);
    return `  ${label.padEnd(13)} plain ${ms(median(xs.plain), width)}   glossa warm ${ms(median(xs.glossa), width)}   ratio ${ratio.toFixed(3)}`;
  });
}
