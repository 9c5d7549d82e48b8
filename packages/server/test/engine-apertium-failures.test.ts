/**
 * Failures real Apertium does not produce on the pairs installed here (ru↔uk's empty output, a stalled or
 * crashing stage) are reproduced with fake mode files whose pipeline is a small `sed` program, run by the
 * real engine through the real `apertium-wblank-mode` and process machinery.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApertiumEngine } from '../src/engines/apertium.js';
import { EngineError, type EngineInput } from '../src/engines/engine.js';

const dir = mkdtempSync(join(tmpdir(), 'glossa-fake-modes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A modes directory holding one fake `eng-spa` mode whose pipeline is `script`. */
function fakeModes(name: string, script: string): string {
  const modes = join(dir, name);
  mkdirSync(modes, { recursive: true });
  writeFileSync(join(modes, 'eng-spa.mode'), `${script}\n`);
  return modes;
}

const input = (texts: string[]): EngineInput => ({
  texts,
  source: 'en',
  target: 'es',
  markup: true,
  formality: 'default',
});

describe('apertium engine failures (fake pipelines)', () => {
  it('turns empty output for a non-empty segment into an EngineError (fake pipeline: ru↔uk is not installed)', async () => {
    const engine = createApertiumEngine({
      modesDir: fakeModes('empty', `sed -u -z 's/^\\(\\[q[0-9]*\\]\\)[^\\n]*/\\1/'`),
    });
    try {
      await expect(engine.translate(input(['Hello world']))).rejects.toThrow(
        new EngineError('apertium: empty translation for a non-empty segment', 'apertium'),
      );
      expect(await engine.translate(input(['', '<x id="1"/>']))).toEqual(['', '<x id="1"/>']);
    } finally {
      await engine.close();
    }
  });

  it('stops a pipeline whose answers lose step with its segments (fake pipeline: a stray NUL)', async () => {
    const engine = createApertiumEngine({ modesDir: fakeModes('stray', `sed -u -z 's/^\\[q1\\]/[q2]/'`) });
    try {
      await expect(engine.translate(input(['Hello']))).rejects.toThrow(
        /^apertium eng-spa: pipeline stopped: its output lost step with its input/,
      );
      expect(engine.status()[0]!.pid).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it('fails a stalled pipeline after the timeout and restarts it on the next call (fake pipeline)', async () => {
    const engine = createApertiumEngine({ modesDir: fakeModes('stall', `sed -n -u -z 'h'`), timeoutMs: 300 });
    try {
      const started = Date.now();
      await expect(engine.translate(input(['Hello']))).rejects.toThrow(
        /^apertium eng-spa: pipeline stopped: no output for 300 ms/,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(engine.status()[0]!.pid).toBeUndefined();
      await expect(engine.translate(input(['Hello']))).rejects.toThrow(EngineError);
      expect(engine.status()[0]!.starts).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('reports a pipeline that exits as an EngineError, never a crash (fake pipeline)', async () => {
    const engine = createApertiumEngine({ modesDir: fakeModes('exit', `sed -u -z 'Q5'`) });
    try {
      await expect(engine.translate(input(['Hello', 'world']))).rejects.toThrow(
        /^apertium eng-spa: pipeline stopped: /,
      );
      await expect(engine.translate(input(['Hello']))).rejects.toThrow(EngineError);
    } finally {
      await engine.close();
    }
  });
});
