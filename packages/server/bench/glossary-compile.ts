/**
 * Compiling the largest glossary's matcher on the event loop (issue 31): 160,000 entries of multi-word
 * terms (10 MiB of TSV, about a million prefixes at word cuts), compiled as the server compiles it
 * (`TermMatcher.compile`, what `compileMatcher` runs: the cuts counted first, tables sized once, in
 * `inTurns` turns), against the compile it replaced measured in the same run (tables sized for one prefix
 * an entry and grown by doubling, 500 entries per turn). Prints, per compile, the time, the longest turn
 * the event loop saw (a `setImmediate` ticker's longest gap; and the longest by the process's CPU time,
 * which the machine's load moves less) and the peak of heap + array buffers above the start; medians of
 * `ROUNDS` (5).
 *   pnpm --filter @glossa/server bench:compile
 */
import { formatGlossaryEntries, MAX_GLOSSARY_BYTES } from '@glossa/protocol';
import { type EntryList, EntryTableBuilder } from '../src/glossaries/entries.js';
import { TermMatcher } from '../src/glossaries/matcher.js';
import { nextTurn } from '../src/turns.js';

const ENTRIES = 160_000;
const ROUNDS = Number(process.env.ROUNDS ?? 5);

let seed = 31;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}n`);
const word = () => WORDS[Math.floor(WORDS.length * random())]!;
/**
 * Terms of 1 to 6 words, the first one numbered: every prefix distinct, the most prefixes the limits allow
 * (real terms share their first words more often), targets of a few words.
 */
const tsv = formatGlossaryEntries(
  Array.from({ length: ENTRIES }, (_, i) => ({
    source: [`${word()}${i.toString(36)}`, ...Array.from({ length: Math.floor(random() * 6) }, word)].join(
      ' ',
    ),
    target: `objetivo ${i} ${word()} ${word()}`,
  })),
);
const builder = new EntryTableBuilder();
builder.lines(tsv, 0, Number.POSITIVE_INFINITY, true);
const entries = builder.done();
let cuts = 0;
for (let index = 0; index < entries.length; index++) cuts += TermMatcher.cutsOf(entries.source(index));
if (Buffer.byteLength(tsv) > MAX_GLOSSARY_BYTES) throw new Error('the glossary is over the limit');

/** The compile before issue 31's count: sized for one prefix an entry, grown by doubling, 500 an turn. */
async function grownCompile(list: EntryList): Promise<TermMatcher> {
  const matcher = new TermMatcher(list, 0);
  for (let from = 0; from < list.length; from += 500) {
    await nextTurn();
    matcher.addUpTo(Math.min(list.length, from + 500));
  }
  return matcher;
}

const held = () => {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
};

interface Figures {
  ms: number;
  longestTurnMs: number;
  /** The process's CPU time in its longest turn by CPU time (the machine's load aside). */
  longestTurnCpuMs: number;
  peakMiB: number;
  rehashed: number;
}

async function measure(compile: (list: EntryList) => Promise<TermMatcher>): Promise<Figures> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = held();
  let peak = base;
  let longest = 0;
  let longestCpu = 0;
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let ticking = true;
  let sampled = 0;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    longest = Math.max(longest, now - last);
    longestCpu = Math.max(longestCpu, (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000);
    last = now;
    lastCpu = cpu;
    // The heap sampled every 5 ms at most (process.memoryUsage() is not free: every turn would slow the compile).
    if (now - sampled > 5) {
      peak = Math.max(peak, held());
      sampled = now;
    }
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const matcher = await compile(entries);
  const ms = performance.now() - started;
  ticking = false;
  peak = Math.max(peak, held());
  if (matcher.find('the w1an0 w2ein').length < 0) throw new Error('unreachable');
  return {
    ms,
    longestTurnMs: longest,
    longestTurnCpuMs: longestCpu,
    peakMiB: (peak - base) / 2 ** 20,
    rehashed: matcher.rehashed,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const runs: { counted: Figures[]; grown: Figures[] } = { counted: [], grown: [] };
await measure((list) => TermMatcher.compile(list)); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  runs.grown.push(await measure(grownCompile));
  runs.counted.push(await measure((list) => TermMatcher.compile(list)));
}
const summary = (figures: Figures[]) => ({
  ms: median(figures.map((one) => one.ms)),
  turn: median(figures.map((one) => one.longestTurnMs)),
  turnCpu: median(figures.map((one) => one.longestTurnCpuMs)),
  peak: median(figures.map((one) => one.peakMiB)),
  rehashed: figures[0]!.rehashed,
});
const counted = summary(runs.counted);
const grown = summary(runs.grown);
console.log(
  `glossary compile: ${entries.length} entries, ${(Buffer.byteLength(tsv) / 2 ** 20).toFixed(1)} MiB of TSV, ${cuts} cuts; medians of ${ROUNDS}`,
);
for (const [name, one] of [
  ['counted first (compile)', counted],
  ['baseline, grown by doubling', grown],
] as const)
  console.log(
    `${name.padEnd(31)} ${one.ms.toFixed(0).padStart(5)} ms, longest turn ${one.turn.toFixed(1).padStart(5)} ms (by CPU ${one.turnCpu.toFixed(1).padStart(5)} ms), peak +${one.peak.toFixed(1)} MiB, ${one.rehashed} keys rehashed`,
  );
console.log(
  `ratio baseline / counted: time ${(grown.ms / counted.ms).toFixed(2)}×, longest turn ${(grown.turn / counted.turn).toFixed(2)}× (by CPU ${(grown.turnCpu / counted.turnCpu).toFixed(2)}×), peak ${(grown.peak / counted.peak).toFixed(2)}×`,
);
