/**
 * @glossa/xliff throughput: extract (parseXliff) + merge (translateXliff filling every target in place)
 * against a bare saxes parse of the same XLIFF 2.1 text (~1 MB; BENCH_BYTES to change).
 */
import { cpus, loadavg } from 'node:os';
import { SaxesParser } from 'saxes';
import { exportXliff, parseXliff, translateXliff } from '../src/index.js';
import { throughput } from './measure.js';

const target = Number(process.env.BENCH_BYTES ?? 1_000_000);
const segments = [];
for (let i = 0; segments.length * 260 < target; i++)
  segments.push({
    key: `docs/page-${i}.md#paragraph-${i}`,
    source: `Read <g id="1">the guide</g> before you <x id="2"/> install &amp; run version ${i} of the tool, then restart.`,
    notes: ['Shown in the getting-started guide'],
  });
const codes = Object.fromEntries(
  segments.map((s) => [
    s.key,
    {
      '1': { kind: 'g' as const, open: '[', close: '](/guide)' },
      '2': { kind: 'x' as const, text: '`npm i`' },
    },
  ]),
);
const text = exportXliff(segments, { sourceLanguage: 'en', targetLanguage: 'de', codes });
const bytes = Buffer.byteLength(text);
const translate = async (list: readonly { source: string }[]) => list.map((s) => s.source);

console.log(
  `@glossa/xliff: ${(bytes / 1e6).toFixed(2)} MB of XLIFF 2.1, ${segments.length} units, Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
const parse = throughput('bare saxes parse (baseline)', bytes, () => new SaxesParser().write(text).close());
const extractOnly = throughput('extract (parseXliff)', bytes, () => parseXliff(text));
let merged = '';
const start = performance.now();
for (let i = 0; i < 3; i++) merged = (await translateXliff(text, { translate })).xliff;
const mergeMs = (performance.now() - start) / 3;
const both = bytes / 1e6 / (mergeMs / 1000);
console.log(
  `${'extract + merge (translateXliff, all filled)'.padEnd(44)} ${both.toFixed(2).padStart(8)} MB/s  (mean ${mergeMs.toFixed(1)} ms)`,
);
console.log(`output ${(Buffer.byteLength(merged) / 1e6).toFixed(2)} MB`);
console.log(`ratio extract / parse: ${(extractOnly / parse).toFixed(2)}`);
console.log(`ratio extract+merge / parse: ${(both / parse).toFixed(2)}`);
