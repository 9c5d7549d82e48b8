/**
 * Messages whose `|` parts are plural choices (vue-i18n, Docusaurus): each part, without its surrounding
 * whitespace, is a segment of its own (key `<key>/|<n>`, or `key` when there is one part), so the
 * separators and the whitespace around them cannot move or be translated.
 */
import type { CodeMap } from '../segment.js';
import type { IcuExtraction, IcuSegment } from './icu.js';

/** A part's body as a segment source with its codes; `words` says whether it is worth translating. */
export interface EncodedChoice {
  readonly source: string;
  readonly codes: CodeMap;
  readonly words: boolean;
}

/**
 * Builds the extraction of a message already split into its `|` parts: `encode` turns a part's body
 * into a segment, `decode` turns a target back into message text; untranslated parts keep their source.
 */
export function extractChoices(
  parts: readonly string[],
  key: string,
  encode: (body: string) => EncodedChoice,
  decode: (target: string, codes: CodeMap) => string,
): IcuExtraction {
  const segments: IcuSegment[] = [];
  const pieces = parts.map((part, index) => {
    const lead = /^\s*/.exec(part)![0];
    const body = part.slice(lead.length).trimEnd();
    const trail = part.slice(lead.length + body.length);
    const segmentKey = parts.length === 1 ? key : `${key}/|${index}`;
    const { source, codes, words } = encode(body);
    if (words) segments.push({ key: segmentKey, source, codes });
    return { lead, body, trail, segmentKey, source, codes };
  });
  return {
    segments,
    rebuild(targets) {
      return pieces
        .map((p) => {
          const target = targets.get(p.segmentKey);
          if (target === undefined || target === p.source) return p.lead + p.body + p.trail;
          return p.lead + decode(target, p.codes) + p.trail;
        })
        .join('|');
    },
  };
}
