/**
 * What `/v3/languages?resource=voice` reports, exactly as installed: transcription where a pocketsphinx
 * model is installed (Debian's pocketsphinx-en-us: English) with the python3-pocketsphinx library to run
 * it, targets where an engine translates from a transcribed language, `spoken_terms` on transcribed sources,
 * `translated_speech` on targets with an installed espeak-ng voice.
 */
import { existsSync } from 'node:fs';
import { type Language, languageName } from '@glossa/protocol';
import type { EngineRegistry } from '@glossa/server/feature';
import { ENGLISH_MODEL, PYTHON } from './recognizer.js';
import { speechVoice } from './speech.js';

const MODELS: Record<string, typeof ENGLISH_MODEL> = { en: ENGLISH_MODEL };
const LIBRARY = '/usr/lib/python3/dist-packages/pocketsphinx/__init__.py';

/** Source languages with an installed model (acoustic model, language model, dictionary) and the library. */
export const TRANSCRIPTION_LANGUAGES: readonly string[] =
  existsSync(PYTHON) && existsSync(LIBRARY)
    ? Object.keys(MODELS).filter((code) =>
        Object.values(MODELS[code] ?? {}).every((path) => existsSync(path)),
      )
    : [];

/** The voice resource's languages (the languages module calls this for `resource=voice`). */
export function voiceLanguageObjects(engines: EngineRegistry): Language[] {
  const targets = new Set<string>();
  for (const source of TRANSCRIPTION_LANGUAGES) {
    for (const { pair } of engines.choices) {
      if (pair.source.toLowerCase().split('-')[0] === source) targets.add(pair.target);
    }
  }
  const codes = [...new Set([...TRANSCRIPTION_LANGUAGES, ...targets])].sort();
  return codes.map((code): Language => {
    const isSource = TRANSCRIPTION_LANGUAGES.includes(code);
    const features: Language['features'] = {};
    if (isSource) {
      features.transcription = { status: 'stable' };
      features.spoken_terms = { status: 'stable' };
    }
    if (targets.has(code) && speechVoice(code)) features.translated_speech = { status: 'stable' };
    return {
      lang: code,
      name: languageName(code) ?? code,
      usable_as_source: isSource,
      usable_as_target: targets.has(code),
      status: 'stable',
      features,
    };
  });
}
