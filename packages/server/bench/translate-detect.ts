/**
 * Translate without `source_lang` (issue 21, "no silent non-translations"): messages of the gettext
 * catalogues Debian installs, in 51 languages (the data of `/v3/detect/language`'s bench, kept in
 * packages/server-language-tools/bench/data/detect-debian.tsv with its sources and licences), sent to ES
 * through a real server with Apertium. A text in a language that reaches Spanish here (en, fr, pt, it)
 * should be translated as that language; any other should be refused (400, billed nothing).
 * "Detector alone" is the source detector by itself on the same texts, in the same run (what the server
 * did before the engine's vocabulary had a say).
 *   pnpm --filter @glossa/server bench:detect [-- --misses]
 */
import { readFileSync } from 'node:fs';
import { createSourceDetector } from '../src/translate/detect-source.js';
import { startBenchServer } from './bench-server.js';

const file = new URL('../../server-language-tools/bench/data/detect-debian.tsv', import.meta.url);
const texts = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line) => {
    const [label, bucket, , text] = line.split('\t') as [string, string, string, string];
    return { language: label.replace(/^unsupported:/, ''), bucket, text };
  });

const server = await startBenchServer();
/** The detected source of a translation to ES, or undefined when the server refused the text. */
async function translatedAs(text: string): Promise<string | undefined> {
  const { status, data } = await server.call('/v2/translate', { json: { text: [text], target_lang: 'ES' } });
  if (status !== 200 && status !== 400) throw new Error(`${status}: ${JSON.stringify(data)}`);
  return data.translations?.[0]?.detected_source_language.toLowerCase();
}
const sources = new Set(['en', 'fr', 'pt', 'it']);
// --misses lists the texts of those four languages the server did not translate as themselves.
const misses = process.argv.includes('--misses');
const detector = createSourceDetector();
type Tally = { kept: number; own: number; refused: number; other: number };
const withEngine = new Map<string, Tally>();
const alone = new Map<string, Tally>();
const started = performance.now();
for (const { language, bucket, text } of texts) {
  if (language === 'es') continue;
  const own = sources.has(language);
  const detected = await translatedAs(text);
  const byDetector = await detector.detect(text, sources);
  if (misses && own && detected !== language) console.log(`  not translated as ${language}: ${text}`);
  for (const [tally, answer] of [
    [withEngine, detected],
    [alone, byDetector !== undefined && sources.has(byDetector) ? byDetector : undefined],
  ] as const) {
    const entry = tally.get(bucket) ?? { kept: 0, own: 0, refused: 0, other: 0 };
    if (own) {
      entry.own++;
      if (answer === language) entry.kept++;
    } else {
      entry.other++;
      if (answer === undefined) entry.refused++;
    }
    tally.set(bucket, entry);
  }
}
const pct = (part: number, whole: number) => `${part}/${whole} (${((100 * part) / whole).toFixed(1)}%)`;
for (const bucket of ['short', 'long']) {
  for (const [name, tally] of [
    ['server (detector + engine vocabulary)', withEngine],
    ['detector alone', alone],
  ] as const) {
    const entry = tally.get(bucket)!;
    console.log(
      `${bucket}, ${name}: en/fr/pt/it texts translated as themselves ${pct(entry.kept, entry.own)}; other languages refused ${pct(entry.refused, entry.other)}`,
    );
  }
}
console.log(`${texts.length} texts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await server.close();
