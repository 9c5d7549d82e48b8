/** The source language of a document, detected from its texts among the languages that translate into the target. */
import { baseLanguage, ERROR_CODES, isPseudoLocale, toV2LanguageCode as v2 } from '@glossa/protocol';
import type { ServiceContext } from '@glossa/server/feature';
import { ServiceError } from '@glossa/server/feature';
import type { Extraction } from './formats/format.js';
import { plainOf } from './formats/inline.js';

export async function detectSource(
  extraction: Extraction,
  target: string,
  context: ServiceContext,
): Promise<string> {
  // The target's own language is a candidate too: a document already in it is a failed job, not another
  // language's (see `sameLanguageJob`).
  const candidates = new Set(context.engines.sourcesFor(target));
  if (!isPseudoLocale(target)) candidates.add(baseLanguage(target));
  const sample = extraction.texts
    .map((text) =>
      text.mode === 'plain' ? text.text : plainOf(text.text.replace(/<(?!\/?g[ >]|x )[^>]*>/g, ' ')),
    )
    .join(' ')
    .slice(0, 4000);
  const detected = sample.trim() === '' ? undefined : await context.detector.detect(sample, candidates);
  const source = detected ?? (sample.trim() === '' && candidates.has('en') ? 'en' : undefined);
  if (!source) {
    throw new ServiceError(
      400,
      `Could not detect the source language of the document among the languages that translate into ${v2(target)}; send 'source_lang'.`,
      ERROR_CODES.unsupportedLanguage,
    );
  }
  return source;
}
