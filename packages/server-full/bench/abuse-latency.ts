/**
 * Issue 31, "Done when": one account cannot slow the others. The full server (abuse-full-server.mjs, a child
 * process, as the abuse test runs it) serves a normal client (the paid key: short translations to en-XA,
 * 50 a second, as in the abuse tests) unloaded, then while a free key sends each abusive input the limits
 * allow, over and over for at least PHASE_MS, and then all of them at once:
 * - `glossaries`: three 10 MiB glossaries (160,000 entries) created one after another, a translation with
 *   each in turn and with the three at once, then deleted;
 * - `tmx`: the largest TMX import (MAX_TMX_BYTES), polled until done, then its memory deleted;
 * - `job`: quality-evaluation jobs of the most and longest segments, polled until done;
 * - `sync`: synchronous quality evaluations whose one segment fills the body limit;
 * - `all`: the four at once.
 * ROUNDS rounds of every phase, interleaved (the machine's own load drifts). Per phase, over its rounds: the
 * normal client's requests, p50 and p99, the ratio of its p99 to the unloaded p99 of the same run (the goal: ≤ 3),
 * the same ratio per round, the abusive inputs completed, and, to see where the time goes: the event-loop
 * delay (loop-probe.mjs, preloaded into the server: p99 and max, ms), the event loop's utilization, the main
 * thread's GC pauses, and from /proc the main thread's CPU time and its time waiting for a CPU (schedstat:
 * contention), the CPU time of the server's other threads and of its child processes (Apertium, Hunspell),
 * as shares of the phase's wall time. Then the peak RSS over the run, against the memory budget. The server
 * runs with MALLOC_ARENA_MAX=2 on glibc, as `glossa-server` sets it (malloc-arenas.ts), unless the
 * environment sets it.
 *   pnpm --filter @glossa/server-full bench:abuse            (from the TypeScript sources)
 *   GLOSSA_ABUSE_BUILT=1 pnpm --filter … bench:abuse       (the built server: `pnpm build` first)
 *   ROUNDS=3 PHASE_MS=8000 ONLY=tmx,job (phases besides `unloaded`; ONLY=all: only the four at once)
 *   PROFILE_DIR=<dir> (`--cpu-prof`)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AbuseServer,
  type Answer,
  call as callAs,
  FROM_SOURCES,
  normalClient,
  normalClientFor,
  percentile,
  reportOnSignal,
  sampleRss,
  startAbuseServer,
} from '../../server/test/abuse-helpers.js';
import { FULL_MEMORY_BUDGET_MB } from '../src/index.js';
import { fewArenasEnv } from '../src/malloc-arenas.js';
import {
  importLargestTmx,
  largestGlossaries,
  largestTmx,
  qualityJob,
  qualitySync,
} from '../test/abuse-inputs.js';

const BUILT = Boolean(process.env.GLOSSA_ABUSE_BUILT);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const PHASE_MS = Number(process.env.PHASE_MS ?? 8000);
const here = new URL('.', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'glossa-abuse-latency-'));
const probe = [
  '--import',
  new URL('./loop-probe.mjs', import.meta.url).href,
  // PROFILE_DIR=<dir>: the server's main thread's CPU profile, written there when it exits.
  ...(process.env.PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] : []),
];

console.log(`starting the full server (${BUILT ? 'built' : 'from the sources'}) …`);
const server: AbuseServer = await startAbuseServer(
  join(here, '../test/abuse-full-server.mjs'),
  { dataDir },
  BUILT ? probe : [...FROM_SOURCES, ...probe],
  // As `glossa-server` runs: with MALLOC_ARENA_MAX=2 on glibc unless the environment sets it (malloc-arenas.ts).
  fewArenasEnv(),
);
const { started } = server;
const pid = server.child.pid!;
/** The server's MALLOC_ARENA_MAX (its environment, from /proc), printed with the results. */
const arenas =
  readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .find((variable) => variable.startsWith('MALLOC_ARENA_MAX='))
    ?.slice('MALLOC_ARENA_MAX='.length) ?? 'unset';
for (;;) {
  if ((await fetch(`${started.paid}/ready`)).status === 200) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const call = (what: string, path: string, body?: unknown) =>
  callAs(what, started.free, started.freeKey, path, body);
const remove = (path: string) =>
  fetch(started.free + path, {
    method: 'DELETE',
    headers: { authorization: `Service-Auth-Key ${started.freeKey}` },
  });

/** An abusive input sent once: its answers (every one must be a success, or 429/503 with Retry-After). */
type Input = (answers: Answer[]) => Promise<boolean>;

let glossaryRound = 0;
const inputs: Record<string, Input> = {
  async glossaries(answers) {
    // A new glossary every time (nothing compiled is reused from an earlier round).
    const last = await largestGlossaries(call, remove, answers, glossaryRound++ * 3);
    return last.status < 300;
  },
  async tmx(answers) {
    const { answer, memoryId, status } = await importLargestTmx(call, answers);
    if (memoryId) await remove(`/v3/translation_memories/${memoryId}`);
    return answer.status === 200 && status === 'completed';
  },
  job: async (answers) => (await qualityJob(call, answers)).status === 200,
  sync: async (answers) => (await qualitySync(call, answers)).status === 200,
};

/** CPU figures of the server from /proc, ms: its main thread's run and wait, its other threads', its children's. */
function cpu(): { mainRun: number; mainWait: number; threads: number; children: number } {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  };
  const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  // The process's CPU time counts its threads that ended too.
  const threads =
    ticks(readFileSync(`/proc/${pid}/stat`, 'utf8')) -
    ticks(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  let children = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid)) children += ticks(stat);
    } catch {}
  }
  return { mainRun: run! / 1e6, mainWait: wait! / 1e6, threads, children };
}

/** The probe's figures since its last report (SIGUSR2: the server prints them on stderr). */
const probeReport = () =>
  reportOnSignal<{
    delay: { p50: number; p99: number; max: number };
    busy: number;
    gc: { count: number; ms: number; maxMs: number };
  }>(server, 'probe');

interface Measured {
  latencies: number[];
  failures: number;
  done: number;
  refused: number;
  wallMs: number;
  probe: Awaited<ReturnType<typeof probeReport>>;
  cpu: ReturnType<typeof cpu>;
}

/** One phase: the normal client while the named inputs are sent over and over for PHASE_MS (none: unloaded). */
async function phase(names: readonly string[]): Promise<Measured> {
  await probeReport();
  const cpuBefore = cpu();
  const start = performance.now();
  let done = 0;
  let refused = 0;
  const answers: Answer[] = [];
  const loops = names.map(async (name) => {
    while (performance.now() - start < PHASE_MS) {
      if (await inputs[name]!(answers)) done++;
      else refused++;
    }
  });
  const abuse = loops.length ? Promise.all(loops) : new Promise((resolve) => setTimeout(resolve, PHASE_MS));
  const client = await normalClient(started, abuse);
  const wallMs = performance.now() - start;
  const cpuAfter = cpu();
  for (const answer of answers)
    if (answer.status >= 300 && (![429, 503].includes(answer.status) || !answer.retryAfter))
      throw new Error(`${answer.what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  if (server.child.exitCode !== null) throw new Error(`the server exited:\n${server.output()}`);
  return {
    ...client,
    done,
    refused,
    wallMs,
    probe: await probeReport(),
    cpu: {
      mainRun: cpuAfter.mainRun - cpuBefore.mainRun,
      mainWait: cpuAfter.mainWait - cpuBefore.mainWait,
      threads: cpuAfter.threads - cpuBefore.threads,
      children: cpuAfter.children - cpuBefore.children,
    },
  };
}

const only = process.env.ONLY?.split(',');
const named = ['glossaries', 'tmx', 'job', 'sync'];
const alone = named.filter((name) => !only || only.includes(name));
/** At once in `all`: the inputs named, or all four for `ONLY=all` (then none alone). */
const abusive = alone.length === 0 && only?.includes('all') ? named : alone;
const phases: [string, string[]][] = [
  ['unloaded', []],
  ...alone.map((name): [string, string[]] => [name, [name]]),
  ...(abusive.length > 1 ? [['all', abusive] as [string, string[]]] : []),
];

largestTmx();
const rss = sampleRss(server);
// Warm: the normal client's path, and each input once (what loads on first use is not the abuse's cost).
await normalClientFor(started, 2000);
for (const name of abusive) await inputs[name]!([]);
await new Promise((resolve) => setTimeout(resolve, 2000));
const results = new Map<string, Measured[]>(phases.map(([name]) => [name, []]));
for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, names] of phases) {
    const measured = await phase(names);
    results.get(name)!.push(measured);
    console.log(
      `round ${round} ${name}: n ${measured.latencies.length}, p99 ${percentile(measured.latencies, 99).toFixed(1)} ms, ${measured.done} done, ${measured.refused} refused, loop delay max ${measured.probe.delay.max} ms, busy ${measured.probe.busy}, load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`,
    );
  }
}
const peak = rss.peak();
rss.stop();
// The probe's stalls (PROBE_STALLS=1), with the phase each came in.
for (const line of server.output().split('\n'))
  if (/^(stall|probe) /.test(line) && process.env.PROBE_STALLS) console.log(line);
await server.close();
rmSync(dataDir, { recursive: true, force: true });

const unloaded = results.get('unloaded')!.flatMap((measured) => measured.latencies);
const baseP99 = percentile(unloaded, 99);
const roundBase = results.get('unloaded')!.map((measured) => percentile(measured.latencies, 99));
const share = (ms: number, wall: number) => `${Math.round((100 * ms) / wall)}%`;
const sum = (rows: Measured[], pick: (row: Measured) => number) =>
  rows.reduce((total, row) => total + pick(row), 0);
const maxOf = (rows: Measured[], pick: (row: Measured) => number) => Math.max(...rows.map(pick));

console.log(
  `\n${BUILT ? 'built' : 'from the sources'}; ${ROUNDS} rounds of ≥ ${PHASE_MS / 1000} s per phase; MALLOC_ARENA_MAX ${arenas}; peak RSS ${Math.round(peak)} MB (budget ${FULL_MEMORY_BUDGET_MB} MB)\n`,
);
console.log(
  '| phase | requests | p50 ms | p99 ms | max ms | p99 / unloaded p99 | per round | inputs done | loop delay p99 / max ms | loop busy | GC ms (max) | main CPU / waiting | other threads | child processes |',
);
console.log(
  '| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
);
for (const [name] of phases) {
  const rows = results.get(name)!;
  const latencies = rows.flatMap((row) => row.latencies);
  const p99 = percentile(latencies, 99);
  const wall = sum(rows, (row) => row.wallMs);
  const perRound = rows
    .map((row, round) => (percentile(row.latencies, 99) / roundBase[round]!).toFixed(1))
    .join(', ');
  console.log(
    `| ${name} | ${latencies.length} | ${percentile(latencies, 50).toFixed(1)} | ${p99.toFixed(1)} | ${Math.max(...latencies).toFixed(0)} | **${(p99 / baseP99).toFixed(2)}** | ${perRound} | ${sum(rows, (row) => row.done)} | ${maxOf(rows, (row) => row.probe.delay.p99)} / ${maxOf(rows, (row) => row.probe.delay.max)} | ${(sum(rows, (row) => row.probe.busy * row.wallMs) / wall).toFixed(2)} | ${sum(rows, (row) => row.probe.gc.ms)} (${maxOf(rows, (row) => row.probe.gc.maxMs)}) | ${share(
      sum(rows, (row) => row.cpu.mainRun),
      wall,
    )} / ${share(
      sum(rows, (row) => row.cpu.mainWait),
      wall,
    )} | ${share(
      sum(rows, (row) => row.cpu.threads),
      wall,
    )} | ${share(
      sum(rows, (row) => row.cpu.children),
      wall,
    )} |`,
  );
}
const failures = [...results.values()].flat().reduce((total, row) => total + row.failures, 0);
if (failures > 0) throw new Error(`the normal client had ${failures} failures`);
