/**
 * Real docs trees this project did not write (see corpora/README.md): every page translated to en-XA
 * and to es (real Apertium through a real @glossa/server on loopback) renders to the same structure as
 * its source in its site's own pipeline; front matter stays valid YAML; a second run sends nothing.
 * Segments whose codes the engine could not keep in place are kept in the source language and listed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createMemoryStore,
  createTranslationCache,
  createTranslationRun,
  type MergeProblem,
  type RunFailure,
  type Translator,
  wireOptions,
} from '@glossa/core';
import type { Translation } from '@glossa/protocol';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { extract, type MarkdownExtraction, merge } from '../src/index.js';
import type { MarkdownDialect } from '../src/options.js';
import { mdxStructure, vitepressStructure } from './site-structure.js';

let server: GlossaServer;
let dataDir: string;
let requests = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'glossa-corpora-'));
  server = await startServer({ dataDir, port: 0, freePort: 0, host: '127.0.0.1', logger: false });
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** POST /v2/translate on the real server. */
const translator: Translator = {
  async translateText(texts, options): Promise<readonly Translation[]> {
    requests++;
    const response = await fetch(`${server.url}/v2/translate`, {
      method: 'POST',
      headers: { Authorization: `Service-Auth-Key ${server.devKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: texts, ...wireOptions(options) }),
    });
    if (response.status !== 200) throw new Error(`translate: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { translations: Translation[] }).translations;
  },
};

interface Corpus {
  readonly name: string;
  readonly dialect: MarkdownDialect;
  /** The site's own reading of a page. */
  readonly structure: (text: string, file: string) => unknown;
}

const CORPORA: readonly Corpus[] = [
  { name: 'vitepress', dialect: 'vitepress', structure: (text) => vitepressStructure(text) },
  // Docusaurus reads .md as MDX too (default `markdown.format: 'mdx'`).
  { name: 'docusaurus', dialect: 'docusaurus', structure: (text) => mdxStructure(text, 'mdx') },
  // Astro reads .md with remark and .mdx with MDX.
  {
    name: 'starlight',
    dialect: 'starlight',
    structure: (text, file) => mdxStructure(text, file.endsWith('.mdx') ? 'mdx' : 'md'),
  },
];

function pages(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.mdx?$/.test(path) && !/LICENSE/.test(path) && statSync(join(folder, path)).isFile())
    .sort();
}

const frontmatter = (text: string) => /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text)?.[1];

for (const corpus of CORPORA) {
  describe(`corpus ${corpus.name}`, () => {
    const folder = join(import.meta.dirname, 'corpora', corpus.name);
    const files = pages(folder).map((path) => {
      const text = readFileSync(join(folder, path), 'utf8');
      return { path, text, extraction: extract(text, { file: path, dialect: corpus.dialect }) };
    });

    test('has a few dozen pages, each read without a message it should not give', () => {
      expect(files.length).toBeGreaterThanOrEqual(24);
      const messages = files.flatMap((f) =>
        f.extraction.messages.map((m) => `${f.path}:${m.line}: ${m.reason}`),
      );
      // HTML inside list items or quotes is left as is and said so; nothing else is expected.
      expect(messages.filter((m) => !/HTML inside a blockquote or list item/.test(m))).toEqual([]);
    });

    for (const locale of ['en-XA', 'es']) {
      test(`to ${locale}: same structure in the site's pipeline, valid front matter, and a second run sends nothing`, async () => {
        const cache = createTranslationCache([createMemoryStore()]);
        const segments = files.flatMap((f) => f.extraction.segments.map((s) => ({ ...s, file: f.path })));
        const run = () =>
          createTranslationRun({ sourceLang: 'en', targetLangs: [locale], translator, cache }).translate({
            segments,
          });
        const first = await run();
        const targets = first.targets.get(locale)!;
        const problems: MergeProblem[] = [];
        let untouched = 0;
        for (const { path, text, extraction } of files) {
          const output = merge(extraction as MarkdownExtraction, targets, {
            onProblem: (p) => problems.push(p),
          });
          if (output === text) untouched++;
          const yaml = frontmatter(output);
          if (yaml !== undefined) expect(() => parseYaml(yaml), `${path}: front matter`).not.toThrow();
          expect(corpus.structure(output, path), `${path} (${locale})`).toEqual(corpus.structure(text, path));
        }
        expect(problems).toEqual([]);
        // Pages were translated: most of them changed.
        expect(untouched).toBeLessThan(files.length / 4);
        // Every segment kept in the source language is reported with its file and position.
        for (const failure of first.report.failures as RunFailure[]) {
          expect(failure.file).toBeDefined();
          expect(failure.position?.line).toBeGreaterThan(0);
        }
        console.log(
          `${corpus.name} → ${locale}: ${files.length} pages, ${segments.length} segments, ${first.report.requests} requests, ` +
            `${first.report.retried} retried with the second encoding, ${first.report.failures.length} kept in the source language`,
        );
        // A second run finds everything in the cache; only what failed (never cached) is asked again.
        const before = requests;
        const second = await run();
        expect(second.report.cacheHits + second.report.unchanged).toBe(
          first.report.segments - first.report.failures.length,
        );
        if (first.report.failures.length === 0) expect(requests - before).toBe(0);
      }, 300_000);
    }
  });
}
