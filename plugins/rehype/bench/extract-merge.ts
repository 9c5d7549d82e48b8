/**
 * @glossa/rehype throughput: extract + merge against a bare rehype-parse parse, over ~300 kB of the test
 * fixtures' HTML inside one document (BENCH_BYTES to change).
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { extract, merge } from '../src/index.js';
import { throughput } from './measure.js';

const fixtures = join(import.meta.dirname, '../test/fixtures');
const parts = ['attributes', 'untouched', 'whitespace-entities', 'fragment'].map((name) =>
  readFileSync(join(fixtures, name, 'input.html'), 'utf8'),
);
const unit = `<section>\n${parts.join('\n')}\n</section>\n`;
const body = unit.repeat(Math.ceil(Number(process.env.BENCH_BYTES ?? 300_000) / Buffer.byteLength(unit)));
const text = `<!doctype html>\n<html lang="en">\n<head><title>Benchmark page</title></head>\n<body>\n${body}</body>\n</html>\n`;
const bytes = Buffer.byteLength(text);
const parser = unified().use(rehypeParse).freeze();

console.log(
  `@glossa/rehype: ${(bytes / 1e6).toFixed(2)} MB of HTML, Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
const parse = throughput('bare rehype-parse parse (baseline)', bytes, () => parser.parse(text));
const extracted = extract(text);
const changed = new Map(extracted.segments.map((s) => [s.key, `Z ${s.source}`]));
const identity = new Map(extracted.segments.map((s) => [s.key, s.source]));
const extractOnly = throughput('extract (verbose parse + walk)', bytes, () => extract(text));
throughput('merge alone (every segment changed)', bytes, () => merge(extracted, changed, { lang: 'es' }));
const both = throughput('extract + merge (identity targets)', bytes, () => merge(extract(text), identity));
const bothChanged = throughput('extract + merge (every segment changed)', bytes, () =>
  merge(extract(text), changed, { lang: 'es' }),
);
console.log(`segments: ${extracted.segments.length}`);
console.log(`ratio extract / parse: ${(extractOnly / parse).toFixed(2)}`);
console.log(`ratio extract+merge (identity) / parse: ${(both / parse).toFixed(2)}`);
console.log(`ratio extract+merge (changed) / parse: ${(bothChanged / parse).toFixed(2)}`);
