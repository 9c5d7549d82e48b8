/**
 * Docusaurus's translation messages (`code.json`, `navbar.json`, … from `docusaurus write-translations`),
 * read as Docusaurus reads them: `interpolate()` replaces `{name}` (a single brace around a word) and
 * nothing else quotes anything, so an apostrophe is text (`'{label}'` is a quoted placeholder, not ICU's
 * quoted literal); `usePluralForm().selectMessage` splits a message at `|` into plural forms. Each
 * `{name}` is a standalone code; each `|` part is a segment of its own (key `<key>/|<n>`), so the
 * separators cannot move or be translated.
 */
import type { CodeMap, InlineCode } from '../segment.js';
import { extractChoices } from './choices.js';
import type { IcuExtraction } from './icu.js';
import { escapeInlineText, parseInline } from './inline.js';

/** What Docusaurus's `interpolate()` replaces: `text.split(/(\{\w+\})/)`. */
const PLACEHOLDER = /\{\w+\}/g;

/**
 * A `|` in a translation would add a plural form: it is written as U+FF5C (｜), which Docusaurus shows
 * as text.
 */
const SEPARATOR_IN_TEXT = '\uFF5C';

/** Splits a Docusaurus message into its `|` parts, each a segment with its placeholders as codes. */
export function extractDocusaurus(message: string, key: string): IcuExtraction {
  return extractChoices(
    message.split('|'),
    key,
    (body) => {
      const codes: Record<string, InlineCode> = {};
      let source = '';
      let at = 0;
      let next = 1;
      for (const m of body.matchAll(PLACEHOLDER)) {
        source += escapeInlineText(body.slice(at, m.index));
        const id = String(next++);
        source += `<x id="${id}"/>`;
        codes[id] = { kind: 'x', text: m[0] };
        at = m.index + m[0].length;
      }
      source += escapeInlineText(body.slice(at));
      return { source, codes, words: /[\p{L}\p{N}]/u.test(body.replace(PLACEHOLDER, '')) };
    },
    decode,
  );
}

/** A target's text with its placeholders put back; a `|` the translation added stays text. */
function decode(target: string, codes: CodeMap): string {
  return parseInline(target)
    .map((t) => {
      if (t.type === 'text') return t.text.replaceAll('|', SEPARATOR_IN_TEXT);
      if (t.type === 'x') return codes[t.id]?.text ?? '';
      return '';
    })
    .join('');
}
