/**
 * Issue 31: what the language tools' warm-up holds in the server's process, part by part. Runs the steps of
 * `warmUpLanguageTools` one after the other in this process and prints its RSS (worker threads are part of
 * it; Hunspell and Grammalecte are child processes, not counted) and the V8 heap after each, against the
 * RSS before any part as the baseline. Run: `pnpm --filter @glossa/server-full exec tsx --conditions
 * @glossa/source bench/warm-up-rss.ts`.
 */
import { sharedLanguageDetector } from '../../server-language-tools/src/detect/shared.js';
import { startEvaluationPool } from '../../server-language-tools/src/quality/pool.js';
import { SAMPLES } from '../../server-language-tools/src/warm-up.js';
import { checkFrench } from '../../server-language-tools/src/write/grammalecte.js';
import { checkWords } from '../../server-language-tools/src/write/hunspell.js';
import { improveTexts } from '../../server-language-tools/src/write/improve.js';
import { availableWriteLanguages } from '../../server-language-tools/src/write/languages.js';

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const baseline = process.memoryUsage().rss;
let last = baseline;
const rows: string[] = [];
async function part(name: string, work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  rows.push(
    `| ${name} | ${mb(rss - last)} | ${mb(rss)} | ${mb(heapUsed)} | ${mb(external + arrayBuffers)} | ${Math.round(performance.now() - started)} |`,
  );
  last = rss;
}

const languages = availableWriteLanguages();
await part('Hunspell and Grammalecte (child processes)', () =>
  Promise.all(
    languages.map((language) =>
      language.checker === 'hunspell'
        ? checkWords(language.code, ['warm'])
        : language.checker === 'grammalecte'
          ? checkFrench('Bonjour.')
          : undefined,
    ),
  ),
);
await part('language detection (thread)', async () =>
  (await sharedLanguageDetector()).detect(['Das ist ein ganz normaler deutscher Satz.']),
);
for (const language of languages)
  await part(`write ${language.code} (${language.checker ?? 'harper'})`, () =>
    improveTexts({
      texts: [SAMPLES[language.code] ?? SAMPLES['en-US']!],
      targetLang: language.code,
      mode: language.styles ? 'rephrase' : 'correct',
      ...(language.styles ? { writingStyle: 'business' as const } : {}),
    }),
  );
const pool = startEvaluationPool();
await part('quality evaluation (thread)', () => pool.warm());

console.log(
  `RSS before the warm-up: ${mb(baseline)} MB; after: ${mb(last)} MB (${(last / baseline).toFixed(2)}×)`,
);
console.log(
  '| part | RSS added (MB) | RSS (MB) | main heap used (MB) | external + array buffers (MB) | ms |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(row);
process.exit(0);
