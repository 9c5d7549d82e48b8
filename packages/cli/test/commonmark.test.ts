/**
 * All 652 examples of the CommonMark 0.31.2 spec, one file each, through `glossa translate` to en-XA
 * (a real server) with `markdown: { dialect: 'commonmark' }`: the run never aborts, and each output
 * renders (commonmark.js, the reference implementation) to the same tags and attributes as its source;
 * text is compared only inside code.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { HtmlRenderer, Parser } from 'commonmark';
import spec from 'commonmark-spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, glossa, project } from './helpers.js';

let server: GlossaServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startServer({
    dataDir: await project({}),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  env = childEnv({ GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: server.devKey });
});
afterAll(() => server.close());

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const TRANSLATED = /\s(alt|title)="[^"]*"/g;

/** The tags and attributes commonmark.js renders, with text kept only inside `<code>`. */
function tagSequence(markdown: string): string[] {
  const html = new HtmlRenderer().render(new Parser().parse(markdown));
  const out: string[] = [];
  let code = 0;
  let at = 0;
  for (const match of html.matchAll(TAG)) {
    const text = html.slice(at, match.index);
    if (code > 0 && text) out.push(`text:${text}`);
    const [, slash, name, attributes] = match;
    if (name === 'code') code += slash ? -1 : 1;
    out.push(`<${slash}${name}${attributes!.replace(TRANSLATED, ' $1="…"')}>`);
    at = match.index + match[0].length;
  }
  return out;
}

const examples = spec.tests;

describe('CommonMark 0.31.2 spec', () => {
  it('translates all 652 examples to en-XA and es (Apertium) and each renders to the same tags and attributes', async () => {
    expect(examples).toHaveLength(652);
    const files: Record<string, string> = {
      'glossa.config.json': JSON.stringify({
        markdown: { dialect: 'commonmark' },
        cache: false,
        lock: false,
      }),
    };
    const name = (n: number) => `spec/example-${String(n).padStart(3, '0')}.md`;
    // The spec writes tabs as `→`.
    for (const example of examples) files[name(example.number)] = example.markdown.replaceAll('→', '\t');
    const cwd = await project(files);
    const run = await glossa(['translate', 'spec', '--to', 'en-XA,es', '--out', 'out'], { cwd, env });
    expect(run.stdout).toMatch(/^failed files: +0$/m);
    expect(run.stdout).toMatch(/^wrote 1304 file\(s\)/m);
    for (const locale of ['en-XA', 'es']) {
      const changed: string[] = [];
      let translated = 0;
      for (const example of examples) {
        const source = files[name(example.number)]!;
        const path = join(cwd, 'out', locale, name(example.number).slice('spec/'.length));
        const output = await readFile(path, 'utf8');
        if (output !== source) translated++;
        if (JSON.stringify(tagSequence(output)) !== JSON.stringify(tagSequence(source)))
          changed.push(`${example.number} (${example.section})`);
      }
      expect(changed, locale).toEqual([]);
      expect(translated, locale).toBeGreaterThan(locale === 'es' ? 250 : 400);
    }
    // Segments whose codes Apertium could not keep in place stay in English, listed with positions.
    const failures = Number(/^failures: +(\d+)$/m.exec(run.stdout)?.[1]);
    const listed = run.stdout
      .split('\n')
      .filter((line) => /^ {2}spec\/example-\d+\.md:\d+:\d+ \[es\]: /.test(line));
    expect(listed).toHaveLength(failures);
    expect(run.code, run.stderr).toBe(failures > 0 ? 1 : 0);
    console.log(`CommonMark spec: ${failures} segment(s) kept in English for es`);
  }, 300_000);
});
