/**
 * Issue 31: what a large JSON body costs other clients while it is parsed. A Fastify app with the spine's
 * body parsers (`registerBodyParsers`) takes 10 MiB glossary bodies (the largest the limits allow) while a
 * probe measures the event loop: for each POST, the event loop's busy time (`eventLoopUtilization`: what
 * other clients wait behind; a loaded machine's scheduling delays do not count), the longest stall (the
 * gap between two 5 ms timer ticks, less 5 ms: they do) and the POST's own time. Baseline of the same run: every body parsed on the event loop, as before
 * (`setThreadParseBytes(Infinity)`); then bodies of THREAD_PARSE_BYTES and more on the parsing thread.
 * Rounds alternate between the two. `ROUNDS=n` (default 6).
 * Then the same for 10 MiB form bodies (application/x-www-form-urlencoded, a /v2/translate-shaped body of
 * repeated `text` fields with `+` and percent-escapes), whose decoding and check are on the same thread.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MAX_GLOSSARY_BYTES } from '@glossa/protocol';
import Fastify from 'fastify';
import { DB_THREAD_CHARS, DB_THREAD_ENTRIES, setDbThreadThresholds } from '../src/glossaries/db-thread.js';
import { createGlossaryStore } from '../src/glossaries/store.js';
import { FormBody, registerBodyParsers, setThreadParseBytes, THREAD_PARSE_BYTES } from '../src/http/body.js';
import { openResourceDatabase } from '../src/storage/resource-db.js';
import { largestGlossary } from '../test/abuse-helpers.js';

const rounds = Number(process.env.ROUNDS ?? 6);

const largestGlossaryBody = (seed: number) =>
  JSON.stringify({ name: `g${seed}`, source_lang: 'en', target_lang: 'es', entries: largestGlossary(seed) });

/** A 10 MiB translate-shaped form body: `text` repeated, with `+` for spaces and percent-escaped UTF-8. */
function largestFormBody(seed: number): string {
  const parts = ['target_lang=DE', 'source_lang=EN'];
  let bytes = 0;
  for (let i = 0; bytes < MAX_GLOSSARY_BYTES - 1024; i++) {
    const part = `text=Sentence+${seed}x${i.toString(36)}+about+caf%C3%A9+%E2%9C%93+and+${'more+words+'.repeat(4)}`;
    parts.push(part);
    bytes += part.length + 1;
  }
  return parts.join('&');
}

const app = Fastify({ bodyLimit: 64 * 1024 * 1024 });
registerBodyParsers(app);
app.post('/echo', async (request) =>
  request.body instanceof FormBody
    ? { length: request.body.params.getAll('text').length }
    : { length: (request.body as { entries: string }).entries.length },
);
const url = await app.listen({ port: 0, host: '127.0.0.1' });

const bodies = [0, 1, 2].map(largestGlossaryBody);
const forms = [0, 1, 2].map(largestFormBody);
const all = [...bodies, ...forms];
console.log(
  `body-parse: ${bodies.length} JSON bodies of ${(Buffer.byteLength(bodies[0]!) / 1048576).toFixed(1)} MiB, ${forms.length} form bodies of ${(Buffer.byteLength(forms[0]!) / 1048576).toFixed(1)} MiB; threshold ${THREAD_PARSE_BYTES} B; ${rounds} rounds`,
);

// The client in a process of its own (its work is not this event loop's): gets the bodies as JSON lines, then
// POSTs body n for each line 'n' and answers with the status.
const client = spawn(
  process.execPath,
  [
    '-e',
    `const rl = require('node:readline').createInterface({ input: process.stdin });
     const bodies = [];
     rl.on('line', async (line) => {
       if (bodies.length < ${all.length}) { bodies.push(JSON.parse(line)); if (bodies.length === ${all.length}) console.log('ready'); return; }
       const n = Number(line);
       const response = await fetch('${url}/echo', { method: 'POST', body: bodies[n], headers: { 'content-type': n < ${bodies.length} ? 'application/json' : 'application/x-www-form-urlencoded' } });
       await response.text();
       console.log(response.status);
     });`,
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const answers = createInterface({ input: client.stdout! })[Symbol.asyncIterator]();
for (const body of all) client.stdin!.write(`${JSON.stringify(body)}\n`);
if ((await answers.next()).value !== 'ready') throw new Error('the client did not start');

interface Sample {
  /** The POST's own time, ms. */
  ms: number;
  /** Event-loop busy time during the POST (`eventLoopUtilization` active), ms: what other clients wait behind. */
  busy: number;
  /** Longest gap between two 5 ms ticks, less 5 ms (includes the machine's own scheduling delays). */
  stall: number;
}

async function post(seed: number): Promise<Sample> {
  let last = performance.now();
  let stall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 5);
    last = now;
  }, 5);
  const before = performance.eventLoopUtilization();
  const start = performance.now();
  client.stdin!.write(`${seed}\n`);
  const status = (await answers.next()).value;
  const ms = performance.now() - start;
  const busy = performance.eventLoopUtilization(before).active;
  clearInterval(probe);
  stall = Math.max(stall, performance.now() - last - 5);
  if (status !== '200') throw new Error(`POST: ${status}`);
  return { ms, busy, stall: Math.max(0, stall) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Rounds of `kind` bodies (indexes from `first` in `all`), alternating inline and thread; prints a table. */
async function measure(kind: string, first: number, count: number): Promise<void> {
  const results = { inline: [] as Sample[], thread: [] as Sample[] };
  // Warm both paths (the thread starts on its first body).
  setThreadParseBytes(Number.POSITIVE_INFINITY);
  await post(first);
  setThreadParseBytes(THREAD_PARSE_BYTES);
  await post(first);
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['inline', 'thread'] as const) : (['thread', 'inline'] as const)) {
      setThreadParseBytes(mode === 'inline' ? Number.POSITIVE_INFINITY : THREAD_PARSE_BYTES);
      results[mode].push(await post(first + (round % count)));
    }
  }
  setThreadParseBytes(THREAD_PARSE_BYTES);
  const of = (mode: 'inline' | 'thread', key: keyof Sample) =>
    median(results[mode].map((sample) => sample[key]));
  console.log(`\n${kind} bodies`);
  console.log('| parsed | event-loop busy ms | longest stall ms | POST ms |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const mode of ['inline', 'thread'] as const)
    console.log(
      `| ${mode === 'inline' ? 'on the event loop (baseline)' : 'on the thread'} | ${of(mode, 'busy').toFixed(1)} | ${of(mode, 'stall').toFixed(1)} | ${of(mode, 'ms').toFixed(1)} |`,
    );
  console.log(
    `${kind}: medians of ${rounds}; thread / event loop: busy ${(of('thread', 'busy') / of('inline', 'busy')).toFixed(2)}, longest stall ${(of('thread', 'stall') / of('inline', 'stall')).toFixed(2)}, POST ${(of('thread', 'ms') / of('inline', 'ms')).toFixed(2)}`,
  );
}

// BENCH_ONLY=store measures the glossary store alone.
if (process.env.BENCH_ONLY !== 'store') {
  await measure('JSON', 0, bodies.length);
  await measure('form', bodies.length, forms.length);
}

/**
 * The glossary store (resource SQLite database) writing and reading one 10 MiB dictionary: on the event loop
 * (the baseline, better-sqlite3 is synchronous) and on the database thread. The longest gap of a 1 ms timer.
 */
async function measureStore(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-bench-store-'));
  const store = createGlossaryStore(openResourceDatabase(dir));
  const tsv = largestGlossary(9);
  const dictionary = { source: 'en', target: 'es', tsv, entryCount: tsv.split('\n').length };
  const results = { inline: [] as number[][], thread: [] as number[][] };
  const longestGap = async (work: () => Promise<unknown>) => {
    let last = performance.now();
    let gap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 1);
    await work();
    clearInterval(timer);
    return Math.max(gap, performance.now() - last);
  };
  for (let round = 0; round <= rounds; round++) {
    for (const mode of round % 2 === 0 ? (['inline', 'thread'] as const) : (['thread', 'inline'] as const)) {
      if (mode === 'inline') setDbThreadThresholds(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      let id = '';
      const write = await longestGap(async () => {
        id = (await store.create(`account${round}`, 'g', [dictionary])).id;
      });
      let count = 0;
      const read = await longestGap(async () => {
        count = (await store.entries(`account${round}`, id, 'en', 'es'))!.length;
      });
      setDbThreadThresholds(DB_THREAD_CHARS, DB_THREAD_ENTRIES);
      if (count !== dictionary.entryCount)
        throw new Error(`read ${count} of ${dictionary.entryCount} entries`);
      if (round > 0) results[mode].push([write, read]);
    }
  }
  // Another client's small write on the event loop's connection (a 3-entry glossary), repeated every 2 ms:
  // alone (baseline), then while the thread writes a 10 MiB dictionary. better-sqlite3 waits for SQLite's
  // write lock synchronously (busy timeout), so the longest such write is how long the event loop stood still.
  const small = { source: 'en', target: 'es', tsv: 'a\tb\nc\td\ne\tf', entryCount: 3 };
  const smallWrites = async (during: Promise<unknown>) => {
    let done = false;
    void during.finally(() => {
      done = true;
    });
    let longest = 0;
    let n = 0;
    for (let k = 0; !done || k < 5; k++) {
      const started = performance.now();
      const created = await store.create(`other${n++}`, 's', [small]);
      longest = Math.max(longest, performance.now() - started);
      await store.delete(`other${n - 1}`, created.id);
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (done && k >= 5) break;
    }
    await during;
    return longest;
  };
  const contention = {
    alone: [] as number[],
    during: [] as number[],
    gapAlone: [] as number[],
    gapDuring: [] as number[],
  };
  for (let round = 0; round < rounds; round++) {
    let longest = 0;
    contention.gapAlone.push(
      await longestGap(async () => {
        longest = await smallWrites(new Promise((resolve) => setTimeout(resolve, 300)));
      }),
    );
    contention.alone.push(longest);
    contention.gapDuring.push(
      await longestGap(async () => {
        longest = await smallWrites(store.create(`big${round}`, 'g', [dictionary]));
      }),
    );
    contention.during.push(longest);
  }
  rmSync(dir, { recursive: true, force: true });
  const of = (mode: 'inline' | 'thread', k: number) => median(results[mode].map((sample) => sample[k]!));
  console.log(
    `\nglossary store, one dictionary of ${tsv.length} characters (${dictionary.entryCount} entries)`,
  );
  console.log('| written and read | longest stall, write ms | longest stall, read ms |');
  console.log('| --- | ---: | ---: |');
  for (const mode of ['inline', 'thread'] as const)
    console.log(
      `| ${mode === 'inline' ? 'on the event loop (baseline)' : 'on the database thread'} | ${of(mode, 0).toFixed(1)} | ${of(mode, 1).toFixed(1)} |`,
    );
  console.log(
    `store: medians of ${rounds}; thread / event loop: write stall ${(of('thread', 0) / of('inline', 0)).toFixed(2)}, read stall ${(of('thread', 1) / of('inline', 1)).toFixed(2)}`,
  );
  const alone = median(contention.alone);
  const during = median(contention.during);
  const gapAlone = median(contention.gapAlone);
  const gapDuring = median(contention.gapDuring);
  console.log(
    `store: another client's small glossary writes (every 2 ms), medians of ${rounds} rounds: longest event-loop stall alone ${gapAlone.toFixed(1)} ms, while the thread writes 10 MiB ${gapDuring.toFixed(1)} ms (ratio ${(gapDuring / gapAlone).toFixed(1)}); longest small write alone ${alone.toFixed(1)} ms, during ${during.toFixed(1)} ms (it waits for the thread's write)`,
  );
}
await measureStore();
client.kill();
await app.close();
process.exit(0);
