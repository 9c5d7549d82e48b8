import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApertiumEngine, createApertiumEngine } from '../src/engines/apertium.js';
import { EngineError, type EngineInput } from '../src/engines/engine.js';

const input = (texts: string[], target = 'es', extra: Partial<EngineInput> = {}): EngineInput => ({
  texts,
  source: 'en',
  target,
  markup: true,
  formality: 'default',
  ...extra,
});

/** Process ids whose parent is `pid` (the stages of a pipeline), from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Waits until `condition` holds, checking every 20 ms, for at most 5 s. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; waited < 5_000 && !condition(); waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text a `<g id>` wraps in a translation. */
const wrapped = (text: string, id: string) => new RegExp(`<g id="${id}">(.*?)</g>`).exec(text)?.[1];

describe('apertium engine (real Apertium, en→es)', () => {
  let engine: ApertiumEngine;
  beforeAll(() => {
    engine = createApertiumEngine();
  });
  afterAll(() => engine.close());

  it('translates plain text', async () => {
    const [hello, car] = await engine.translate(input(['Hello world', 'The red car is fast.']));
    expect(hello).toContain('Hola');
    expect(car).toBe('El coche rojo es rápidamente.');
  });

  it('keeps a <g> on the words it wrapped, even when Apertium reorders them', async () => {
    const [out] = await engine.translate(input(['Click the <g id="1">red car</g> now.']));
    expect(out).toBe('Clic el <g id="1">coche rojo</g> ahora.');
  });

  it('keeps nested and sibling <g> codes on their words', async () => {
    const [nested, siblings] = await engine.translate(
      input([
        'The <g id="1">big <g id="2">red</g></g> car.',
        'The <g id="a">cat</g> sat on the <g id="b">mat</g>.',
      ]),
    );
    expect(nested).toBe('El coche <g id="1"><g id="2">rojo</g> grande</g>.');
    expect(wrapped(siblings!, 'a')).toBe('gato');
    expect(wrapped(siblings!, 'b')).toBe('estera');
  });

  it('keeps a <g> without words in its place', async () => {
    const [out] = await engine.translate(input(['Click <g id="1"></g>here now.']));
    expect(out).toBe('Clic <g id="1"></g>aquí ahora.');
  });

  it('keeps <x/> codes', async () => {
    const [out] = await engine.translate(input(['Save <x id="1"/> now and <x id="2"/> later.']));
    expect(out!.match(/<x id="1"\/>/g)).toHaveLength(1);
    expect(out!.match(/<x id="2"\/>/g)).toHaveLength(1);
    expect(out).toMatch(/^Salva <x id="1"\/> ahora/);
  });

  it('round-trips Apertium special characters and XML entities', async () => {
    const source = 'Press [Enter] ^ $ @ \\ {x} / &lt;tag&gt; &amp; 5 * 3 #1 now.';
    const [out] = await engine.translate(input([source]));
    for (const piece of ['[', ']', '^', '$', '@', '\\', '{x}', '/', '&lt;', '&gt;', '&amp;', '5 * 3', '#1']) {
      expect(out, piece).toContain(piece);
    }
    expect(out).not.toContain('\\[');
  });

  it('round-trips special characters in plain text (markup off)', async () => {
    const [out] = await engine.translate(input(['a < b & c [d] @e'], 'es', { markup: false }));
    expect(out).toBe('Un < b & c [d] @e');
  });

  it('strips unknown-word marks', async () => {
    const [out] = await engine.translate(input(['The xyzzy is <g id="1">qwertz</g>.']));
    expect(out).toBe('El xyzzy es <g id="1">qwertz</g>.');
  });

  it('does not capitalize the word after a name Apertium does not know at the start of a sentence', async () => {
    // Apertium alone gives "Excalidraw Es un virtual whiteboard." and "Zorblax Corre rápidamente."
    const out = await engine.translate(
      input([
        'Excalidraw is a virtual whiteboard.',
        'Zorblax runs fast. Zorblax is a small tool.',
        '<g id="1">Excalidraw</g> <g id="2">is</g> a whiteboard.',
        'Zorblax Madrid is big.',
      ]),
    );
    expect(out).toEqual([
      'Excalidraw es un virtual whiteboard.',
      'Zorblax corre rápidamente. Zorblax es una herramienta pequeña.',
      '<g id="1">Excalidraw</g> <g id="2">es</g> un whiteboard.',
      'Zorblax Madrid es grande.',
    ]);
  });

  it('drops the space some transfer rules put before a full stop, where the source has none', async () => {
    // Apertium alone gives "Madrid es una ciudad grande ." and "Peter es un amigo bueno ."
    const out = await engine.translate(
      input(['Madrid is a big city.', 'Peter is a good friend, I think.', 'Type . to repeat.']),
    );
    expect(out[0]).toBe('Madrid es una ciudad grande.');
    expect(out[1]).toMatch(/^Peter es un amigo bueno,/);
    // A space the source has before a full stop is kept.
    expect(out[2]).toContain(' . ');
  });

  it('keeps leading and trailing whitespace and passes empty or code-only texts through', async () => {
    const out = await engine.translate(input(['  Good morning.  ', '', '<x id="1"/>', ' ']));
    expect(out).toEqual(['  Buenos días.  ', '', '<x id="1"/>', ' ']);
  });

  it('answers many concurrent calls in order', async () => {
    const sentences = [
      'The red car is fast.',
      'Hello world',
      'Click the <g id="1">red car</g> now.',
      'I like cats.',
    ];
    const expected = await engine.translate(input(sentences));
    const calls = Array.from({ length: 40 }, (_, i) =>
      engine.translate(input([sentences[i % 4]!, sentences[(i + 1) % 4]!, sentences[(i + 2) % 4]!])),
    );
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(result).toEqual([expected[i % 4], expected[(i + 1) % 4], expected[(i + 2) % 4]]);
    });
    const eng = engine.status().find((s) => s.mode === 'eng-spa')!;
    expect(eng.starts).toBe(1);
    expect(eng.pending).toBe(0);
  });

  it('refuses a pair that is not installed with an EngineError', async () => {
    await expect(engine.translate(input(['Hi'], 'ja'))).rejects.toThrow(
      new EngineError('apertium: no installed pair for en → ja', 'apertium'),
    );
  });

  it('honours an abort signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('caller gave up'));
    await expect(engine.translate(input(['Hello'], 'es', { signal: controller.signal }))).rejects.toThrow(
      'caller gave up',
    );
  });
});

describe('apertium engine: pairs, pivots and variants (real Apertium)', () => {
  let engine: ApertiumEngine;
  beforeAll(() => {
    engine = createApertiumEngine();
  });
  afterAll(() => engine.close());

  it('maps Apertium codes to canonical codes', () => {
    const pairs = engine.pairs().map((p) => `${p.source}>${p.target}`);
    for (const pair of [
      'en>es',
      'es>en',
      'en>ca',
      'ca>en',
      'es>pt',
      'es>pt-BR',
      'es>pt-PT',
      'es>en-US',
      'fr>es',
    ]) {
      expect(pairs).toContain(pair);
    }
    expect(pairs.some((p) => /eng|spa|cat|ita|_/.test(p))).toBe(false);
  });

  it('fingerprints the mode and its package version; variants get their own mode', () => {
    expect(engine.fingerprint({ source: 'en', target: 'es' })).toMatch(
      /^apertium\/[^/]+\/eng-spa@[\w.+~-]+$/,
    );
    expect(engine.fingerprint({ source: 'es', target: 'pt-BR' })).toMatch(/\/es-pt_BR@/);
    expect(engine.fingerprint({ source: 'es', target: 'pt-PT' })).toMatch(/\/es-pt@/);
    expect(engine.fingerprint({ source: 'es', target: 'en-US' })).toMatch(/\/spa-eng_US@/);
    expect(engine.fingerprint({ source: 'es', target: 'en-GB' })).toMatch(/\/spa-eng@/);
  });

  it('pivots en→fr through Spanish, labelled in the fingerprint, with codes kept', async () => {
    expect(engine.fingerprint({ source: 'en', target: 'fr' })).toMatch(/\/pivot:eng-spa@[^+]+\+es-fr@/);
    const [plain, tagged] = await engine.translate(
      input(['The red car is fast.', 'Click the <g id="1">red car</g> now.'], 'fr'),
    );
    expect(plain).toBe('La voiture rouge est vite.');
    expect(wrapped(tagged!, '1')).toBe('voiture rouge');
  });

  it('pivots en→pt-BR and en→it', async () => {
    const [pt] = await engine.translate(input(['The red car is fast.'], 'pt-BR'));
    const [it] = await engine.translate(input(['The red car is fast.'], 'it'));
    expect(pt).toMatch(/carro/);
    expect(it).toMatch(/macchina|auto/);
  });
});

describe('apertium engine: process lifecycle (real Apertium)', () => {
  it('restarts a pipeline that was killed', async () => {
    const engine = createApertiumEngine();
    try {
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
      const { pid } = engine.status()[0]!;
      expect(pid).toBeTypeOf('number');
      process.kill(-pid!, 'SIGKILL');
      await until(() => engine.status()[0]!.pid === undefined);
      expect(engine.status()[0]!.pid).toBeUndefined();
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
      expect(engine.status()[0]).toMatchObject({ mode: 'eng-spa', starts: 2 });
    } finally {
      await engine.close();
    }
  });

  it('restarts a pipeline when one of its stages dies', async () => {
    const engine = createApertiumEngine();
    try {
      await engine.translate(input(['Hello']));
      const { pid } = engine.status()[0]!;
      const stages = childrenOf(pid!);
      expect(stages.length).toBeGreaterThan(5);
      process.kill(stages[3]!, 'SIGKILL');
      const outcome = await engine.translate(input(['Hello world'])).catch((error: unknown) => error);
      // The call that meets the dying pipeline may fail with an EngineError; the one after must succeed.
      if (outcome instanceof Error) expect(outcome).toBeInstanceOf(EngineError);
      else expect(outcome).toEqual(['Hola Mundial']);
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
      expect(engine.status()[0]!.starts).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('fails the waiting segments with an EngineError when the pipeline dies mid-call, then recovers', async () => {
    const engine = createApertiumEngine();
    try {
      await engine.translate(input(['Hello']));
      const { pid } = engine.status()[0]!;
      const texts = Array.from({ length: 300 }, (_, i) => `Sentence number ${i} is about a red car.`);
      const call = engine.translate(input(texts));
      setTimeout(() => process.kill(-pid!, 'SIGKILL'), 20);
      await expect(call).rejects.toThrow(EngineError);
      await expect(call).rejects.toThrow(/apertium eng-spa: pipeline stopped/);
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
    } finally {
      await engine.close();
    }
  });

  it('stops an idle pipeline and starts it again on demand', async () => {
    const engine = createApertiumEngine({ idleMs: 200 });
    try {
      await engine.translate(input(['Hello']));
      expect(engine.status()[0]!.pid).toBeTypeOf('number');
      await until(() => engine.status()[0]!.pid === undefined);
      expect(engine.status()[0]!.pid).toBeUndefined();
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
      expect(engine.status()[0]!.starts).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('keeps at most maxPipelines running, stopping the least recently used idle one', async () => {
    const engine = createApertiumEngine({ maxPipelines: 1 });
    try {
      await engine.translate(input(['Hello world']));
      expect(await engine.translate(input(['Hola mundo'], 'en', { source: 'es' }))).toEqual(['Hello World']);
      const pid = (mode: string) => engine.status().find((s) => s.mode === mode)?.pid;
      expect(pid('eng-spa')).toBeUndefined();
      expect(pid('spa-eng')).toBeTypeOf('number');
      expect(await engine.translate(input(['Hello world']))).toEqual(['Hola Mundial']);
      expect(pid('spa-eng')).toBeUndefined();
      expect(engine.status().find((s) => s.mode === 'eng-spa')!.starts).toBe(2);
    } finally {
      await engine.close();
    }
  });

  it('refuses calls after close', async () => {
    const engine = createApertiumEngine();
    await engine.close();
    await expect(engine.translate(input(['Hello']))).rejects.toThrow('apertium: engine is closed');
  });

  it('rejects bad options with a RangeError', () => {
    expect(() => createApertiumEngine({ idleMs: 0 })).toThrow(
      new RangeError('createApertiumEngine: expected idleMs to be a positive number, got 0'),
    );
  });

  it('offers no pairs when Apertium has no modes directory', () => {
    expect(createApertiumEngine({ modesDir: '/nonexistent/modes' }).pairs()).toEqual([]);
  });
});
