/**
 * HTML: the whole page is translated with HTML tag handling: block elements split it into units, inline
 * markup travels as codes, `script`, `style` and `template` are kept byte for byte. Attributes whose value a
 * reader sees or hears — `alt` (an image's text), `title` (a tooltip), `placeholder`, `aria-label`,
 * `aria-description`, the `value` of a button (`<input type="submit|button|reset">`), the `content` of
 * `<meta name="description">` (and `og:`/`twitter:` titles, descriptions and image alt texts) — are translated as texts of
 * their own. The `<html>` element's `lang` (and `xml:lang`) says the target language, and its `dir` the
 * target's direction (`rtl` for Arabic, Hebrew, the pseudo-locale `ar-XB`): on `<html>`, `<body>`
 * (LibreOffice writes `dir="ltr"` there) and every element marked as the page's language. Every other
 * attribute is kept as it is.
 */
import { randomBytes } from 'node:crypto';
import { isRightToLeft } from '@glossa/protocol';
import { decodeEntities } from '@glossa/server/feature';
import { type DocumentFormat, type DocumentText, decodeText, encodeText } from './format.js';
import { pageParts } from './html-parts.js';
import { escapeAttribute } from './inline.js';

/** Attributes whose value is text a reader sees (or a screen reader says), on any element. */
const TEXT_ATTRIBUTES = new Set(['alt', 'title', 'placeholder', 'aria-label', 'aria-description']);
/** `<meta>` whose `content` is text a reader sees (search results, link previews), by `name` or `property`. */
const META_TEXTS = new Set([
  'description',
  'og:title',
  'og:description',
  'og:image:alt',
  'twitter:title',
  'twitter:description',
  'twitter:image:alt',
]);
/** `<input>` types whose `value` is the button's label. */
const BUTTON_INPUTS = new Set(['submit', 'button', 'reset']);

/** The start of content that is not markup: a comment, CDATA, or an element whose content is raw text. */
const RAW_START = /<!--|<!\[CDATA\[|<(script|style|template|textarea|title)\b(?:[^>"']|"[^"]*"|'[^']*')*>/iy;
const START_TAG = /<([A-Za-z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
const ATTRIBUTE = /(\s)([^\s"'>/=]+)(\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

interface Found {
  /** The page with each translated attribute's value replaced by its marker, and `lang` set. */
  readonly html: string;
  readonly attributes: readonly string[];
}

/** The start tags of the page, outside comments and raw text. */
function rewriteStartTags(html: string, rewrite: (name: string, attributes: string) => string): string {
  let out = '';
  let at = 0;
  while (at < html.length) {
    const next = html.indexOf('<', at);
    if (next < 0) break;
    out += html.slice(at, next);
    RAW_START.lastIndex = next;
    const raw = RAW_START.exec(html);
    if (raw) {
      // Kept as it is up to its end; one that never ends runs to the end of the page (as browsers read it).
      const end = raw[1] === undefined ? (raw[0] === '<!--' ? '-->' : ']]>') : undefined;
      let until: number;
      if (end !== undefined) {
        const found = html.indexOf(end, next + raw[0].length);
        until = found < 0 ? html.length : found + end.length;
      } else {
        const close = new RegExp(`</${raw[1]}\\s*>`, 'ig');
        close.lastIndex = next + raw[0].length;
        const found = close.exec(html);
        until = found ? found.index + found[0].length : html.length;
      }
      out += html.slice(next, until);
      at = until;
      continue;
    }
    START_TAG.lastIndex = next;
    const tag = START_TAG.exec(html);
    if (!tag) {
      out += '<';
      at = next + 1;
      continue;
    }
    out += `<${tag[1]}${rewrite(tag[1]!.toLowerCase(), tag[2]!)}>`;
    at = next + tag[0].length;
  }
  return out + html.slice(at);
}

/**
 * The page with each translated attribute's value replaced by a marker (inside a tag, so never translated;
 * `nonce` makes it unlike any text of the page), and `<html lang>` (and `dir`) set to the target.
 */
function findAttributes(
  html: string,
  { targetLang, sourceLang }: { targetLang?: string; sourceLang?: string },
  nonce: string,
): Found {
  const marker = (n: number) => `glossa-${nonce}-${n}`;
  const attributes: string[] = [];
  const base = (code: string) => code.trim().toLowerCase().split(/[-_]/)[0]!;
  // The page's language: `lang` of <html>, else of <body> (LibreOffice writes it there), else the source.
  let pageLang: string | undefined;
  rewriteStartTags(html, (name, raw) => {
    if (pageLang === undefined && (name === 'html' || name === 'body'))
      for (const match of raw.matchAll(ATTRIBUTE))
        if (match[2]!.toLowerCase() === 'lang') pageLang = base(match[4] ?? match[5] ?? match[6] ?? '');
    return raw;
  });
  pageLang ??= sourceLang === undefined ? undefined : base(sourceLang);
  let sawHtml = false;
  const direction = targetLang && (isRightToLeft(targetLang) ? 'rtl' : 'ltr');
  const page = rewriteStartTags(html, (name, raw) => {
    // What the tag's other attributes say: its language, a meta's name, an input's type.
    const values = new Map<string, string>();
    for (const match of raw.matchAll(ATTRIBUTE))
      values.set(match[2]!.toLowerCase(), decodeEntities(match[4] ?? match[5] ?? match[6] ?? ''));
    const lang = values.get('lang') ?? values.get('xml:lang');
    // In the page's language (and so now in the target's), its direction too.
    const pageElement =
      name === 'html' ||
      name === 'body' ||
      (lang !== undefined && pageLang !== undefined && base(lang) === pageLang);
    const textAttribute = (key: string) =>
      TEXT_ATTRIBUTES.has(key) ||
      (key === 'content' &&
        name === 'meta' &&
        META_TEXTS.has((values.get('name') ?? values.get('property') ?? '').trim().toLowerCase())) ||
      (key === 'value' &&
        name === 'input' &&
        BUTTON_INPUTS.has((values.get('type') ?? '').trim().toLowerCase()));
    let rewritten = raw.replace(
      ATTRIBUTE,
      (
        whole,
        space: string,
        attribute: string,
        assignment,
        double?: string,
        single?: string,
        bare?: string,
      ) => {
        const key = attribute.toLowerCase();
        const value = decodeEntities(double ?? single ?? bare ?? '');
        // The page's language becomes the target on <html>, and wherever the page's language is named
        // (a quotation marked as another language keeps its `lang`).
        if (
          targetLang &&
          (key === 'lang' || key === 'xml:lang') &&
          (name === 'html' || (pageLang !== undefined && base(value) === pageLang))
        )
          return `${space}${attribute}="${escapeAttribute(targetLang)}"`;
        if (direction && key === 'dir' && pageElement && value.trim().toLowerCase() !== 'auto')
          return `${space}${attribute}="${direction}"`;
        if (!assignment || !textAttribute(key) || !/\p{L}/u.test(value)) return whole;
        attributes.push(value);
        return `${space}${attribute}="${marker(attributes.length - 1)}"`;
      },
    );
    if (name === 'html' && targetLang && !sawHtml && !values.has('lang'))
      rewritten = ` lang="${escapeAttribute(targetLang)}"${rewritten}`;
    // A right-to-left target: <html dir="rtl"> (left-to-right is the default).
    if (name === 'html' && direction === 'rtl' && !sawHtml && !values.has('dir'))
      rewritten = `${rewritten} dir="rtl"`;
    if (name === 'html') sawHtml = true;
    return rewritten;
  });
  return { html: page, attributes };
}

/** Characters of a part of a large page (a run of blocks), translated as one text. */
export const HTML_PART_CHARS = 32 * 1024;

export const htmlFormat: DocumentFormat = {
  name: 'HTML',
  maxBytes: 5 * 1024 * 1024,
  contentType: 'text/html; charset=utf-8',
  minimumBilled: 0,
  extract(bytes, options) {
    const { text, bom } = decodeText(bytes, 'HTML');
    const nonce = randomBytes(6).toString('hex');
    const found = findAttributes(text, options, nonce);
    const page = /\p{L}/u.test(text);
    // A large page in parts (html-parts.ts): the frame, with an empty block where each part was, then the parts.
    const ranges = page ? pageParts(found.html, HTML_PART_CHARS) : [];
    const placeholder = (n: number) => `<div data-glossa-part="${nonce}-${n}"></div>`;
    let frame = '';
    let at = 0;
    const parts = ranges.map((range, n) => {
      frame += found.html.slice(at, range.start) + placeholder(n);
      at = range.end;
      return found.html.slice(range.start, range.end);
    });
    frame = ranges.length > 0 ? frame + found.html.slice(at) : found.html;
    const texts: DocumentText[] = [
      ...(page ? [{ text: frame, mode: 'html' as const }] : []),
      ...parts.map((part) => ({ text: part, mode: 'html' as const })),
      ...found.attributes.map((value) => ({ text: value, mode: 'plain' as const })),
    ];
    return {
      texts,
      rebuild: (outputs) => {
        let translated = page ? (outputs[0] ?? frame) : frame;
        if (parts.length > 0)
          translated = translated.replace(
            new RegExp(`<div data-glossa-part="${nonce}-(\\d+)"></div>`, 'g'),
            (whole, n: string) => outputs[1 + Number(n)] ?? parts[Number(n)] ?? whole,
          );
        const values = outputs.slice(page ? 1 + parts.length : 0);
        const filled = translated.replace(new RegExp(`glossa-${nonce}-(\\d+)`, 'g'), (whole, n: string) => {
          const index = Number(n);
          const value = values[index]?.trim() || found.attributes[index];
          return value === undefined ? whole : escapeAttribute(value);
        });
        return encodeText(filled, bom);
      },
    };
  },
};
