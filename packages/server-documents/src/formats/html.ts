/**
 * HTML: the whole page is translated with HTML tag handling: block elements split it into units, inline
 * markup travels as codes, `script`, `style` and `template` are kept byte for byte. The `alt` and `title`
 * attributes (an image's text, a tooltip) are translated as texts of their own, and the `<html>` element's
 * `lang` (and `xml:lang`) says the target language; every other attribute is kept as it is.
 */
import { randomBytes } from 'node:crypto';
import { decodeEntities } from '@glossa/server/feature';
import { type DocumentFormat, type DocumentText, decodeText, encodeText } from './format.js';
import { escapeAttribute } from './inline.js';

/** Attributes whose value is text a reader sees. */
const TEXT_ATTRIBUTES = new Set(['alt', 'title']);

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
 * The page with each `alt`/`title` value replaced by a marker (inside a tag, so never translated; `nonce`
 * makes it unlike any text of the page), and `<html lang>` set to the target.
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
  const page = rewriteStartTags(html, (name, raw) => {
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
        if (!assignment || !TEXT_ATTRIBUTES.has(key) || !/\p{L}/u.test(value)) return whole;
        attributes.push(value);
        return `${space}${attribute}="${marker(attributes.length - 1)}"`;
      },
    );
    if (name === 'html' && targetLang && !sawHtml && !/(^|\s)lang\s*=/i.test(raw))
      rewritten = ` lang="${escapeAttribute(targetLang)}"${rewritten}`;
    if (name === 'html') sawHtml = true;
    return rewritten;
  });
  return { html: page, attributes };
}

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
    const texts: DocumentText[] = [
      ...(page ? [{ text: found.html, mode: 'html' as const }] : []),
      ...found.attributes.map((value) => ({ text: value, mode: 'plain' as const })),
    ];
    return {
      texts,
      rebuild: (outputs) => {
        const translated = page ? (outputs[0] ?? found.html) : found.html;
        const values = outputs.slice(page ? 1 : 0);
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
