/**
 * @glossa/remark on real docs trees (test/corpora): extract + merge of every page, against remark's own
 * parse + stringify of the same pages with the same syntax extensions, measured in the same run.
 * The merge puts a changed target in every segment (the work of a real translation run).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { extract, merge } from '../src/index.js';
import type { MarkdownDialect } from '../src/options.js';
import { throughput } from './measure.js';

const root = join(import.meta.dirname, '../test/corpora');
const corpora: { name: string; dialect: MarkdownDialect; mdx: (file: string) => boolean }[] = [
  { name: 'vitepress', dialect: 'vitepress', mdx: () => false },
  { name: 'docusaurus', dialect: 'docusaurus', mdx: () => true },
  { name: 'starlight', dialect: 'starlight', mdx: (file) => file.endsWith('.mdx') },
];

console.log(
  `@glossa/remark on real docs trees, Node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)}`,
);
for (const corpus of corpora) {
  const folder = join(root, corpus.name);
  const pages = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.mdx?$/.test(path) && !/LICENSE/.test(path) && statSync(join(folder, path)).isFile())
    .map((path) => ({ path, text: readFileSync(join(folder, path), 'utf8') }));
  const bytes = pages.reduce((sum, page) => sum + Buffer.byteLength(page.text), 0);
  const processors = [false, true].map((mdx) =>
    unified()
      .use(remarkParse)
      .use(remarkFrontmatter, ['yaml', 'toml'])
      .use(remarkGfm)
      .use(corpus.dialect === 'vitepress' ? [] : [remarkDirective])
      .use(mdx ? [remarkMdx] : [])
      .use(remarkStringify)
      .freeze(),
  );
  const options = pages.map((page) => ({ file: page.path, dialect: corpus.dialect }));
  const changed = pages.map((page, index) => {
    const extraction = extract(page.text, options[index]);
    return new Map(extraction.segments.map((s) => [s.key, `Z ${s.source}`]));
  });
  const segments = changed.reduce((sum, map) => sum + map.size, 0);
  console.log(
    `\n${corpus.name}: ${pages.length} pages, ${(bytes / 1e3).toFixed(0)} kB, ${segments} segments`,
  );
  const baseline = throughput('remark parse + stringify (baseline)', bytes, () => {
    for (const page of pages) {
      const processor = processors[corpus.mdx(page.path) ? 1 : 0]!;
      processor.stringify(processor.parse(page.text));
    }
  });
  const ours = throughput('extract + merge (every segment changed)', bytes, () => {
    for (const [index, page] of pages.entries()) merge(extract(page.text, options[index]), changed[index]!);
  });
  console.log(`ratio extract+merge / parse+stringify: ${(ours / baseline).toFixed(2)}`);
}
