/**
 * What the language tools load at start, so that the first write, detect and quality request after `/ready`
 * answers as fast as later ones: the detection models (on their thread), Harper (on its thread), the English
 * dictionaries, a Hunspell process per installed language, Grammalecte when installed, and a warm thread of
 * quality evaluation. Each is loaded by a small real request of its kind (`improveTexts` of a sentence in
 * each write language, a detection, two quality evaluations), so the code paths of the first request are
 * compiled too. Nothing heavy runs on the event loop: the models load on worker threads or child processes.
 */
import { sharedLanguageDetector } from './detect/shared.js';
import type { EvaluationPool } from './quality/pool.js';
import { checkFrench } from './write/grammalecte.js';
import { checkWords } from './write/hunspell.js';
import { improveTexts } from './write/improve.js';
import { availableWriteLanguages } from './write/languages.js';

/** A sentence per write language, in it (a text in another language is refused by write). */
export const SAMPLES: Readonly<Record<string, string>> = {
  'en-US': 'This are a example of a sentence with a error in the colour of it.',
  'en-GB': 'This are a example of a sentence with a error in the color of it.',
  de: 'Ich habe meinen Schirm gestern im Zug vergesen.',
  es: 'Tengo una familia grande y vivimos en una casa peqeña.',
  fr: 'Les chat mange la souris dans la cuisine de la maison.',
  it: 'Ho dimenticato il mio ombrello nel treno di ieri sera.',
  'pt-BR': 'Eu esqueci meu guarda-chuva no ônibus ontem a noite.',
  'pt-PT': 'Eu esqueci-me do guarda-chuva no autocarro ontem à noite.',
};

/**
 * Loads everything, one part after the other (each part's loading keeps a core busy: at once they took the
 * CPU from the event loop of a small machine); rejects with the first part that failed to load (named).
 */
export async function warmUpLanguageTools(pool: EvaluationPool): Promise<void> {
  const named = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      throw new Error(`${what} did not load: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  };
  // The helper processes first, while this process is small: starting a child copies the parent's page
  // tables on the event loop (0.3 s and more each once the models are loaded, on a busy machine).
  const languages = availableWriteLanguages();
  await Promise.all(
    languages.map((language) => {
      if (language.checker === 'hunspell')
        return named(`Hunspell (${language.code})`, () => checkWords(language.code, ['warm']));
      if (language.checker === 'grammalecte') return named('Grammalecte', () => checkFrench('Bonjour.'));
      return undefined;
    }),
  );
  await named('language detection', async () =>
    (await sharedLanguageDetector()).detect(['Das ist ein ganz normaler deutscher Satz.']),
  );
  for (const language of languages)
    await named(`write (${language.code})`, () =>
      improveTexts({
        texts: [SAMPLES[language.code] ?? SAMPLES['en-US']!],
        targetLang: language.code,
        mode: language.styles ? 'rephrase' : 'correct',
        ...(language.styles ? { writingStyle: 'business' } : {}),
      }),
    );
  await named('quality evaluation', () => pool.warm());
}
