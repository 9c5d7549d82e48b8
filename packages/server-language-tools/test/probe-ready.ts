import { spawn } from 'node:child_process';

/**
 * Asks `url` from a child process (a probe from the test's own process would wait with the server's event
 * loop, which is its own, and see no stall), one request at a time, 50 ms apart: `first` when one answered, `stop`
 * gives each answer's latency in ms (the one in flight included).
 */
export function probeReady(url: string): { first: Promise<void>; stop(): Promise<number[]> } {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `(async () => { for (;;) { const t = performance.now(); const r = await fetch(process.argv[1]);
         await r.text(); if (r.status !== 200) process.exit(1);
         console.log(performance.now() - t); await new Promise((ok) => setTimeout(ok, 50)); } })();`,
      url,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  let answered: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    answered = resolve;
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
    if (output.includes('\n')) answered();
  });
  return {
    first,
    async stop() {
      // The probe in flight when the evaluation ended is answered, then counted.
      const lines = output.split('\n').length;
      while (output.split('\n').length === lines) await new Promise((resolve) => setTimeout(resolve, 10));
      child.kill();
      return output.split('\n').filter(Boolean).map(Number);
    },
  };
}
