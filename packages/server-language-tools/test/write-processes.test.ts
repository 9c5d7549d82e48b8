import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineError } from '@glossa/server';
import { describe, expect, it } from 'vitest';
import { analyseWords, checkWords, closeHunspell } from '../src/write/hunspell.js';
import { LineProcess } from '../src/write/line-process.js';

// The checker helpers are long-lived child processes; these tests run real programs (sh, hunspell).
describe('LineProcess', () => {
  it('answers requests in order and drops the banner of a fresh process', async () => {
    const echo = new LineProcess(
      'echo',
      'sh',
      ['-c', 'echo banner; while read line; do echo "got $line"; done'],
      5000,
      1,
    );
    const one = (line: string) => echo.request(`${line}\n`, (lines) => lines.length >= 1);
    const answers = await Promise.all([one('a'), one('b'), one('c')]);
    expect(answers).toEqual([['got a'], ['got b'], ['got c']]);
    echo.close();
  });

  it('fails the request in flight with EngineError when the process dies, and starts it again next time', async () => {
    const once = new LineProcess(
      'once',
      'sh',
      ['-c', 'echo banner; read line; echo "got $line"; read line; exit 3'],
      5000,
      1,
    );
    expect(await once.request('a\n', (lines) => lines.length >= 1)).toEqual(['got a']);
    const dying = once.request('b\n', (lines) => lines.length >= 1);
    await expect(dying).rejects.toThrow(new EngineError('once stopped', 'once'));
    expect(await once.request('c\n', (lines) => lines.length >= 1)).toEqual(['got c']);
    once.close();
  });

  it('fails with EngineError when the process does not answer in time, then recovers', async () => {
    const slow = new LineProcess(
      'slow',
      'sh',
      ['-c', 'while read line; do [ "$line" = wait ] && sleep 5; echo "got $line"; done'],
      300,
    );
    await expect(slow.request('wait\n', (lines) => lines.length >= 1)).rejects.toThrow(
      'slow did not answer within 300 ms',
    );
    expect(await slow.request('x\n', (lines) => lines.length >= 1)).toEqual(['got x']);
    slow.close();
  });

  it('fails with EngineError when the program does not exist', async () => {
    const missing = new LineProcess('missing', '/nonexistent/checker', [], 1000);
    await expect(missing.request('x\n', (lines) => lines.length >= 1)).rejects.toBeInstanceOf(EngineError);
  });
});

describe('Hunspell', () => {
  it('checks words with suggestions, one result per word, and keeps working after a restart', async () => {
    const words = ['gehen', 'Fenstr', 'Straße', 'xqzvbnm'];
    const first = await checkWords('de', words);
    expect(first.map((check) => check.correct)).toEqual([true, false, true, false]);
    expect(first[1]!.suggestions[0]).toBe('Fenster');
    closeHunspell();
    expect(await checkWords('de', words)).toEqual(first);
    closeHunspell();
  });

  it('analyses words with `hunspell -m` (through stdbuf), one list of analyses per word, none for an unknown word', async () => {
    const analyses = await analyseWords('de', ['wunderbare', 'naschte', 'xqzvbnm', 'nächsten']);
    expect(analyses).toHaveLength(4);
    expect(analyses[0]).toContain('st:wunderbar fl:A');
    expect(analyses[1]).toEqual(['st:naschen fl:Y']);
    expect(analyses[2]).toEqual([]);
    expect(analyses[3]).toContain('st:nächste fl:A');
    closeHunspell();
  });

  it('treats pipe-mode command characters as plain text', async () => {
    const checks = await checkWords('es', ['*casa', '#mesa', '!silla', '@', 'casa']);
    expect(checks).toHaveLength(5);
    expect(checks[4]).toEqual({ correct: true, suggestions: [] });
    closeHunspell();
  });
});

describe('helpers and process exit', () => {
  it('idle Hunspell and Grammalecte helpers do not keep a process alive', () => {
    const dir = mkdtempSync(join(tmpdir(), 'glossa-exit-'));
    const script = join(dir, 'script.mts');
    const source = new URL('../src/write/', import.meta.url).pathname;
    writeFileSync(
      script,
      `import { analyseWords, checkWords } from '${source}hunspell.ts';
import { checkFrench, frenchMorphology } from '${source}grammalecte.ts';
console.log((await checkWords('de', ['gehen'])).length, (await checkFrench('Les chat mange.')).grammar.length,
  (await analyseWords('de', ['gehen'])).length, (await frenchMorphology(['musées'])).length);`,
    );
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--conditions', '@glossa/source', script], {
        cwd: new URL('..', import.meta.url).pathname,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.signal).toBeNull();
      expect(run.stdout.trim()).toBe('1 1 1 1');
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
