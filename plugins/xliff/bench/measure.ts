/** Bench helper: median throughput of a function over a text, in MB/s. */
export function throughput(label: string, bytes: number, run: () => unknown, runs = 7): number {
  for (let i = 0; i < 2; i++) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const mbPerSecond = bytes / 1e6 / (median / 1000);
  console.log(
    `${label.padEnd(44)} ${mbPerSecond.toFixed(2).padStart(8)} MB/s  (median ${median.toFixed(1)} ms)`,
  );
  return mbPerSecond;
}
