/**
 * Translation quality with and without a glossary and a translation memory (issue 21): chrF of en → es
 * translations of 200 sentences from Debian's Spanish gettext catalogues (`data/debian-es.tsv`, see
 * `data/README.md`) against the catalogues' own translations, through a real server with Apertium.
 * - memory: the 1,500 other catalogue sentences of the file, imported as TMX (default threshold 75);
 * - glossary: for each of a fixed list of software nouns, the Spanish word the memory's translations use
 *   most for it among the usual candidates (chosen from the memory half only, never from the test half);
 * - before: the memory's best fuzzy match pasted verbatim (what /v2/translate did before issue 21), and the
 *   glossary locked in codes with only the neighbouring words agreed (an engine without `supportsTerms`).
 *   pnpm --filter @glossa/server bench:quality
 */
import { readFileSync } from 'node:fs';
import { createApertiumEngine } from '../src/engines/apertium.js';
import type { TranslationEngine } from '../src/engines/engine.js';
import { matchScore, tokenize } from '../src/memories/score.js';
import { type BenchServer, startBenchServer } from './bench-server.js';

export interface Pair {
  readonly catalogue: string;
  readonly source: string;
  readonly target: string;
}

export function loadCorpus(): { test: Pair[]; memory: Pair[] } {
  const test: Pair[] = [];
  const memory: Pair[] = [];
  const file = new URL('./data/debian-es.tsv', import.meta.url);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [split, catalogue, source, target] = line.split('\t');
    if (!split || !catalogue || !source || !target) continue;
    (split === 'test' ? test : memory).push({ catalogue, source, target });
  }
  return { test, memory };
}

/** Software nouns and the Spanish words catalogues use for them; the glossary takes the most used one. */
const CANDIDATES: Readonly<Record<string, readonly string[]>> = {
  file: ['archivo', 'fichero'],
  directory: ['directorio', 'carpeta'],
  key: ['clave', 'llave', 'tecla'],
  password: ['contraseña', 'clave'],
  user: ['usuario'],
  server: ['servidor'],
  device: ['dispositivo'],
  option: ['opción'],
  command: ['orden', 'comando', 'mandato'],
  table: ['tabla'],
  column: ['columna'],
  index: ['índice'],
  function: ['función'],
  window: ['ventana'],
  certificate: ['certificado'],
  repository: ['repositorio'],
  branch: ['rama'],
  query: ['consulta'],
  row: ['fila', 'registro'],
  value: ['valor'],
  argument: ['argumento'],
  backup: ['respaldo', 'copia de seguridad', 'copia de respaldo'],
  setting: ['configuración', 'ajuste', 'opción'],
  string: ['cadena'],
  schema: ['esquema'],
  trigger: ['disparador', 'trigger'],
  relation: ['relación'],
  statement: ['sentencia', 'instrucción', 'orden'],
};

/** The glossary chosen from the memory half: a candidate used at least 3 times for its noun, the most used. */
export function chooseGlossary(memory: readonly Pair[]): { source: string; target: string }[] {
  const entries: { source: string; target: string }[] = [];
  for (const [noun, candidates] of Object.entries(CANDIDATES)) {
    const word = new RegExp(`\\b${noun}s?\\b`, 'i');
    const counts = new Map<string, number>();
    for (const pair of memory) {
      if (!word.test(pair.source)) continue;
      const lower = pair.target.toLowerCase();
      const used = candidates.filter((candidate) => new RegExp(`(^|[^\\p{L}])${candidate}`, 'u').test(lower));
      if (used.length === 1) counts.set(used[0]!, (counts.get(used[0]!) ?? 0) + 1);
    }
    const best = [...counts].sort((a, b) => b[1] - a[1])[0];
    if (best && best[1] >= 3) entries.push({ source: noun, target: best[0] });
  }
  return entries;
}

/** chrF2 at corpus level (character 1- to 6-grams without whitespace, β = 2), as sacreBLEU defines it. */
export function chrF(hypotheses: readonly string[], references: readonly string[]): number {
  const order = 6;
  const matches = new Array<number>(order).fill(0);
  const hypCount = new Array<number>(order).fill(0);
  const refCount = new Array<number>(order).fill(0);
  const grams = (text: string, n: number) => {
    const chars = [...text.replace(/\s+/g, '')];
    const counts = new Map<string, number>();
    for (let i = 0; i + n <= chars.length; i++) {
      const gram = chars.slice(i, i + n).join('');
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
    return counts;
  };
  hypotheses.forEach((hypothesis, index) => {
    for (let n = 1; n <= order; n++) {
      const h = grams(hypothesis, n);
      const r = grams(references[index]!, n);
      for (const [gram, count] of h) {
        hypCount[n - 1]! += count;
        matches[n - 1]! += Math.min(count, r.get(gram) ?? 0);
      }
      for (const count of r.values()) refCount[n - 1]! += count;
    }
  });
  let precision = 0;
  let recall = 0;
  for (let n = 0; n < order; n++) {
    precision += hypCount[n]! > 0 ? matches[n]! / hypCount[n]! : 0;
    recall += refCount[n]! > 0 ? matches[n]! / refCount[n]! : 0;
  }
  precision /= order;
  recall /= order;
  const beta2 = 4;
  return precision + recall === 0
    ? 0
    : (100 * (1 + beta2) * precision * recall) / (beta2 * precision + recall);
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const tmx = (pairs: readonly Pair[]) => `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="bench" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>
  <body>
${pairs.map((pair) => `    <tu><tuv xml:lang="en"><seg>${escapeXml(pair.source)}</seg></tuv><tuv xml:lang="es"><seg>${escapeXml(pair.target)}</seg></tuv></tu>`).join('\n')}
  </body>
</tmx>
`;

type Client = BenchServer;

const start = (engines?: TranslationEngine[]): Promise<Client> =>
  startBenchServer(engines ? { engines } : {});

async function importMemory(client: Client, pairs: readonly Pair[]): Promise<string> {
  const content = tmx(pairs);
  const started = await client.call('/v3/translation_memories/import', {
    json: {
      source_file: { file_name: 'debian.tmx', content_length: Buffer.byteLength(content) },
      parameters: { display_name: 'debian' },
    },
  });
  if (started.status !== 202) throw new Error(`import: ${started.status}`);
  const upload = await fetch(started.data.upload_url, { method: 'PUT', body: content });
  await upload.arrayBuffer();
  for (let i = 0; i < 2000; i++) {
    const job = await client.call(`/v3/translation_memories/jobs/${started.data.job_id}`);
    const result = job.data.results?.[0];
    if (result?.status === 'completed') return result.translation_memory_id;
    if (result && result.status !== 'processing' && result.status !== 'awaiting_input')
      throw new Error(`import ${result.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('import did not finish');
}

async function translateAll(
  client: Client,
  texts: readonly string[],
  extra: Record<string, unknown>,
): Promise<{ texts: string[]; matched: number }> {
  const out: string[] = [];
  let matched = 0;
  for (let i = 0; i < texts.length; i += 50) {
    const reply = await client.call('/v2/translate', {
      json: {
        text: texts.slice(i, i + 50),
        source_lang: 'EN',
        target_lang: 'ES',
        ...(extra.translation_memory_id ? { show_translation_memory_matches: true } : {}),
        ...extra,
      },
    });
    if (reply.status !== 200) throw new Error(`translate: ${reply.status} ${JSON.stringify(reply.data)}`);
    for (const translation of reply.data.translations) {
      out.push(translation.text);
      if (translation.customizations?.translation_memory_matches?.length) matched++;
    }
  }
  return { texts: out, matched };
}

export interface QualityFigures {
  readonly sentences: number;
  readonly glossary: readonly { source: string; target: string }[];
  readonly withGlossaryTerm: number;
  readonly chrf: Readonly<Record<string, number>>;
  /** chrF on the sentences with a glossary term, per configuration. */
  readonly chrfTermSentences: Readonly<Record<string, number>>;
  readonly memoryMatched: number;
  readonly memoryUsed: number;
  readonly memoryUsedBefore: number;
  /** Of the sentences answered from the memory, those equal to the catalogue's translation (now, before). */
  readonly memoryExact: number;
  readonly memoryExactBefore: number;
  /** Sentences whose own chrF is lower with the memory than without (now, before). */
  readonly memoryWorse: number;
  readonly memoryWorseBefore: number;
  /** Milliseconds to translate the 200 sentences again (warm: pipelines running, nothing cached). */
  readonly warmMs: Readonly<Record<string, number>>;
}

export async function measure(): Promise<QualityFigures> {
  const { test, memory } = loadCorpus();
  const sources = test.map((pair) => pair.source);
  const references = test.map((pair) => pair.target);
  const glossary = chooseGlossary(memory);
  const entries = glossary.map((entry) => `${entry.source}\t${entry.target}`).join('\n');
  const hasTerm = sources.map((source) =>
    glossary.some((entry) => new RegExp(`\\b${entry.source}s?\\b`, 'i').test(source)),
  );

  const client = await start();
  const lockApertium = createApertiumEngine();
  const { supportsTerms: _native, ...withoutTerms } = lockApertium;
  const locking: TranslationEngine = withoutTerms;
  const lockClient = await start([locking]);
  try {
    const glossaryReply = await client.call('/v2/glossaries', {
      json: { name: 'g', source_lang: 'en', target_lang: 'es', entries, entries_format: 'tsv' },
    });
    const glossaryId = glossaryReply.data.glossary_id;
    const lockGlossary = await lockClient.call('/v2/glossaries', {
      json: { name: 'g', source_lang: 'en', target_lang: 'es', entries, entries_format: 'tsv' },
    });
    const memoryId = await importMemory(client, memory);

    const engine = await translateAll(client, sources, {});
    const glossed = await translateAll(client, sources, { glossary_id: glossaryId });
    const glossedLock = await translateAll(lockClient, sources, {
      glossary_id: lockGlossary.data.glossary_id,
    });
    const remembered = await translateAll(client, sources, { translation_memory_id: memoryId });
    const both = await translateAll(client, sources, {
      translation_memory_id: memoryId,
      glossary_id: glossaryId,
    });

    // Warm timings: the same sentences with another final mark (units the output cache has not seen).
    const warmMs: Record<string, number> = {};
    for (const [name, mark, extra] of [
      ['engine alone', '!', {}],
      ['glossary', '!', { glossary_id: glossaryId }],
      ['memory', '?', { translation_memory_id: memoryId }],
    ] as const) {
      const again = sources.map((source) => source.replace(/\.$/, mark));
      const started = performance.now();
      await translateAll(client, again, extra);
      warmMs[name] = performance.now() - started;
    }

    // Before: the best match at or above 75 pasted as stored (scored as the store scores).
    const memoryTokens = memory.map((pair) => tokenize(pair.source));
    let usedBefore = 0;
    const pasted = sources.map((source, index) => {
      const tokens = tokenize(source);
      let best: { score: number; target: string } | undefined;
      memory.forEach((pair, at) => {
        const score = matchScore(source, tokens, pair.source, memoryTokens[at]!);
        if (score >= 75 && (!best || score > best.score)) best = { score, target: pair.target };
      });
      if (best) usedBefore++;
      return best?.target ?? engine.texts[index]!;
    });
    const memoryUsed = remembered.texts.filter((text, index) => text !== engine.texts[index]).length;
    const exact = (outputs: readonly string[]) =>
      outputs.filter((text, index) => text !== engine.texts[index] && text === references[index]).length;
    const worse = (outputs: readonly string[]) =>
      outputs.filter(
        (text, index) =>
          chrF([text], [references[index]!]) < chrF([engine.texts[index]!], [references[index]!]) - 1e-9,
      ).length;

    const configurations: Record<string, string[]> = {
      'engine alone': engine.texts,
      glossary: glossed.texts,
      'glossary, before (locked terms)': glossedLock.texts,
      memory: remembered.texts,
      'memory, before (fuzzy pasted)': pasted,
      'memory + glossary': both.texts,
    };
    const chrf: Record<string, number> = {};
    const chrfTermSentences: Record<string, number> = {};
    const termIndexes = hasTerm.flatMap((term, index) => (term ? [index] : []));
    for (const [name, hypotheses] of Object.entries(configurations)) {
      chrf[name] = chrF(hypotheses, references);
      chrfTermSentences[name] = chrF(
        termIndexes.map((index) => hypotheses[index]!),
        termIndexes.map((index) => references[index]!),
      );
    }
    return {
      sentences: test.length,
      glossary,
      withGlossaryTerm: termIndexes.length,
      chrf,
      chrfTermSentences,
      memoryMatched: remembered.matched,
      memoryUsed,
      memoryUsedBefore: usedBefore,
      memoryExact: exact(remembered.texts),
      memoryExactBefore: exact(pasted),
      memoryWorse: worse(remembered.texts),
      memoryWorseBefore: worse(pasted),
      warmMs,
    };
  } finally {
    await client.close();
    await lockClient.close();
    await lockApertium.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  const figures = await measure();
  console.log(`${figures.sentences} sentences, ${figures.withGlossaryTerm} with a glossary term`);
  console.log(`glossary: ${figures.glossary.map((entry) => `${entry.source} → ${entry.target}`).join(', ')}`);
  console.log('| configuration | chrF (all) | chrF (sentences with a term) |');
  console.log('|---|---|---|');
  for (const name of Object.keys(figures.chrf)) {
    console.log(
      `| ${name} | ${figures.chrf[name]!.toFixed(2)} | ${figures.chrfTermSentences[name]!.toFixed(2)} |`,
    );
  }
  console.log(
    `memory: ${figures.memoryMatched} sentences with a match reported, ${figures.memoryUsed} answered from it (before: ${figures.memoryUsedBefore} pasted)`,
  );
  console.log(
    `answered from the memory and equal to the catalogue's translation: ${figures.memoryExact} (before: ${figures.memoryExactBefore}); sentences with a lower chrF than the engine's: ${figures.memoryWorse} (before: ${figures.memoryWorseBefore})`,
  );
  console.log(
    `warm, 200 sentences in 4 requests: ${Object.entries(figures.warmMs)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
      .join(', ')}`,
  );
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`);
}
