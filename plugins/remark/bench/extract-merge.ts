/**
 * @glossa/remark throughput: extract + merge against a bare parse with the same parser configuration
 * (unified + remark-parse + gfm + math + frontmatter), over ~150 kB of the test fixtures' Markdown (BENCH_BYTES to change).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { extract, merge } from '../src/index.js';
import { markdownParser } from '../src/parser.js';
import { throughput } from './measure.js';

const fixtures = join(import.meta.dirname, '../test/fixtures');
// One page made of the fixtures (each followed by a thematic break so no container runs into the next).
const pages = [
  'headings',
  'inline',
  'links-images',
  'lists',
  'tables',
  'footnotes',
  'untranslated',
  'blockquotes',
]
  .filter((name) => readdirSync(fixtures).includes(name))
  .map((name) => readFileSync(join(fixtures, name, 'input.md'), 'utf8'));
const unit = `${pages.join('\n\n---\n\n')}\n\n---\n\n`;
const text = unit.repeat(Math.ceil(Number(process.env.BENCH_BYTES ?? 150_000) / Buffer.byteLength(unit)));
const bytes = Buffer.byteLength(text);
const parser = markdownParser({ gfm: true, math: true, mdx: false, features: { directives: false } });

console.log(
  `@glossa/remark: ${(bytes / 1e6).toFixed(2)} MB of Markdown, Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
const parse = throughput('bare parse (baseline)', bytes, () => parser.parse(text));
const extracted = extract(text);
const identity = new Map(extracted.segments.map((s) => [s.key, s.source]));
const changed = new Map(extracted.segments.map((s) => [s.key, `Z ${s.source}`]));
const extractOnly = throughput('extract', bytes, () => extract(text));
throughput('merge alone (every segment changed)', bytes, () => merge(extracted, changed));
const both = throughput('extract + merge (identity targets)', bytes, () => merge(extract(text), identity));
const bothChanged = throughput('extract + merge (every segment changed)', bytes, () =>
  merge(extract(text), changed),
);
console.log(`segments: ${extracted.segments.length}`);
console.log(`ratio extract / parse: ${(extractOnly / parse).toFixed(2)}`);
console.log(`ratio extract+merge (identity) / parse: ${(both / parse).toFixed(2)}`);
console.log(`ratio extract+merge (changed) / parse: ${(bothChanged / parse).toFixed(2)}`);
