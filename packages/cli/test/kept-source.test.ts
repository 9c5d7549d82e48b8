/**
 * Segments every engine failed are failures of `translate`: listed with file and position, exit 1, not
 * cached. The embedded server runs in process with its `openai` engine pointed at a local
 * chat-completions double that echoes every segment in English (the "never worse" chain then keeps the
 * source and reports it).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkCommand, statusCommand } from '../src/commands/status.js';
import { translateCommand } from '../src/commands/translate.js';
import { project } from './helpers.js';

it('lists the segments every engine failed with file and position and exits 1 (embedded server, openai engine against a local echoing double)', async () => {
  let calls = 0;
  const double = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      calls++;
      const sent = JSON.parse(body) as { messages: { role: string; content: string }[] };
      const user = JSON.parse(sent.messages.find((m) => m.role === 'user')!.content) as {
        segments: { id: string; text: string }[];
      };
      const content = JSON.stringify({ translations: user.segments.map(({ id, text }) => ({ id, text })) });
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model: 'echo',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((done) => double.listen(0, '127.0.0.1', done));
  const port = (double.address() as AddressInfo).port;
  const dir = await project({
    'docs/a.md':
      '# Install the package before you start\n\nThis paragraph explains how the whole build works for everyone.\n',
    'glossa.config.json': JSON.stringify({
      targetLocales: ['de'],
      files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
      engines: {
        default: ['pseudo'],
        de: ['openai'],
        openai: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'echo' },
      },
    }),
  });
  try {
    const run = async () => {
      const out: string[] = [];
      const code = await translateCommand(
        {
          io: { out: (t) => out.push(t), err: () => {}, isTTY: false },
          cwd: dir,
          env: { GLOSSA_DATA_DIR: join(dir, '.data') },
        },
        [],
        {},
      );
      return { code, out: out.join('\n') };
    };
    const first = await run();
    expect(first.code, first.out).toBe(1);
    expect(first.out).toMatch(/failures:\s+2/);
    expect(first.out).toMatch(
      /docs\/a\.md:1:3 \[de\]: every engine failed, kept in the source language \(openai: the source was returned untranslated \(2 tries\)\)/,
    );
    expect(first.out).toMatch(/docs\/a\.md:3:1 \[de\]: every engine failed/);
    expect(await readFile(join(dir, 'i18n/de/a.md'), 'utf8')).toContain('# Install the package');
    // Not cached, not recorded as Glossa's: the next run asks again.
    const before = calls;
    const second = await run();
    expect(second.code, second.out).toBe(1);
    expect(calls).toBeGreaterThan(before);
    expect(second.out).toMatch(/failures:\s+2/);
  } finally {
    double.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('warns per file about texts translated with English words left, exits 0 (embedded server, real Apertium en→es)', async () => {
  const dir = await project({
    'docs/a.md': '# The house is big\n\nOpen the color picker.\n',
    'docs/b.md': 'The house is big.\n',
    'glossa.config.json': JSON.stringify({
      targetLocales: ['es'],
      files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
    }),
  });
  try {
    const out: string[] = [];
    const err: string[] = [];
    const run = (flags = {}) =>
      translateCommand(
        {
          io: { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false },
          cwd: dir,
          env: { GLOSSA_DATA_DIR: join(dir, '.data') },
        },
        [],
        flags,
      );
    const code = await run();
    const text = [...out, ...err].join('\n');
    expect(code, text).toBe(0);
    expect(text).toMatch(/failures:\s+0/);
    expect(await readFile(join(dir, 'i18n/es/a.md'), 'utf8')).toContain('Abierto el color picker.');
    expect(err.filter((line) => line.includes('warning: '))).toEqual([
      "docs/a.md [es]: warning: 1 text translated with English words left: 'picker' (3:1)",
    ]);
    // Outputs and cache removed, translated again: --json lists them with file and position.
    await rm(join(dir, 'i18n'), { recursive: true });
    await rm(join(dir, '.glossa'), { recursive: true, force: true });
    out.length = 0;
    expect(await run({ json: true })).toBe(0);
    const report = JSON.parse(out.join('\n')) as { leftWords: unknown[] };
    expect(report.leftWords).toEqual([
      {
        locale: 'es',
        key: expect.stringContaining('docs/a.md'),
        file: 'docs/a.md',
        position: expect.objectContaining({ line: 3, column: 1 }),
        source: 'en',
        words: ['picker'],
      },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('keeps the English words left with the output in glossa.lock: a rerun that sends nothing, a cache hit, status and check still warn, exit 0 (embedded server, real Apertium en→es)', async () => {
  const dir = await project({
    'docs/a.md': '# The house is big\n\nOpen the color picker.\n',
    'docs/b.md': 'The house is big.\n',
    'glossa.config.json': JSON.stringify({
      targetLocales: ['es'],
      files: [{ include: 'docs', output: 'i18n/{locale}/{path}' }],
    }),
  });
  const warning = "docs/a.md [es]: warning: 1 text translated with English words left: 'picker' (3:1)";
  try {
    const out: string[] = [];
    const err: string[] = [];
    const ctx = {
      io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), isTTY: false },
      cwd: dir,
      env: { GLOSSA_DATA_DIR: join(dir, '.data') },
    };
    const warnings = () => err.filter((line) => line.includes('warning: '));
    const again = async (command: typeof translateCommand, flags = {}) => {
      out.length = 0;
      err.length = 0;
      const code = await command(ctx, [], flags);
      return { code, text: [...out, ...err].join('\n') };
    };
    const first = await again(translateCommand);
    expect(first.code, first.text).toBe(0);
    expect(warnings()).toEqual([warning]);
    expect(await readFile(join(dir, 'glossa.lock'), 'utf8')).toContain('"left": ["picker"]');
    // Everything current: nothing is sent, the warning comes from the lock.
    const rerun = await again(translateCommand);
    expect(rerun.code, rerun.text).toBe(0);
    expect(rerun.text).toMatch(/requests:\s+0/);
    expect(rerun.text).toMatch(/up to date:\s+3/);
    expect(warnings()).toEqual([warning]);
    // The outputs deleted, the cache kept: a cache hit, still nothing sent, still the warning.
    await rm(join(dir, 'i18n'), { recursive: true });
    const hit = await again(translateCommand);
    expect(hit.code, hit.text).toBe(0);
    expect(hit.text).toMatch(/requests:\s+0/);
    expect(hit.text).toMatch(/cache hits:\s+3/);
    expect(warnings()).toEqual([warning]);
    // status and check list it as a warning; check still passes.
    const status = await again(statusCommand);
    expect(status.code, status.text).toBe(0);
    expect(warnings()).toEqual([warning]);
    const check = await again(checkCommand);
    expect(check.code, check.text).toBe(0);
    expect(check.text).toMatch(/^ok: 0 missing or stale/m);
    expect(warnings()).toEqual([warning]);
    const json = await again(checkCommand, { json: true });
    expect(json.code).toBe(0);
    expect((JSON.parse(out.join('\n')) as { leftWords: unknown[] }).leftWords).toEqual([
      expect.objectContaining({ file: 'docs/a.md', locale: 'es', source: 'en', words: ['picker'] }),
    ]);
    // A person fixes the sentence: no longer Glossa's output, no warning.
    const path = join(dir, 'i18n/es/a.md');
    await writeFile(path, (await readFile(path, 'utf8')).replace('color picker', 'selector de color'));
    const edited = await again(statusCommand);
    expect(edited.code, edited.text).toBe(0);
    expect(warnings()).toEqual([]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
