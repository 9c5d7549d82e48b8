/**
 * Generic XML and DITA: text nodes are translated with XML tag handling (an element holding only
 * elements is structure and splits units; one with text is a unit, its inline elements become codes),
 * the values of translatable attributes are translated on their own, elements named in `skipElements` and
 * any element with `translate="no"` are kept byte for byte. A DOCTYPE naming an external DTD is allowed
 * (never fetched); an internal subset (entity declarations) is refused.
 */
import { randomBytes } from 'node:crypto';
import { decodeEntities } from '@glossa/server/feature';
import { type DocumentFormat, decodeText, encodeText } from './format.js';
import { escapeAttribute } from './inline.js';
import { Template } from './template.js';
import { checkXml } from './xml-check.js';
import { childNodes } from './xml-scan.js';

/**
 * Names of the elements that are blocks: children of an element without text of its own. Their content
 * is a unit of its own, so a title or a paragraph never carries its tags into the translated text.
 */
function blockElements(xml: string, blocks = new Set<string>(), parentHasText = false): Set<string> {
  for (const node of childNodes(xml)) {
    if (node.kind !== 'element' || node.close === '') continue;
    if (!parentHasText) blocks.add(node.name);
    const children = childNodes(node.inner);
    const hasText = children.some((child) => child.kind === 'text' && child.raw.trim() !== '');
    blockElements(node.inner, blocks, hasText);
  }
  return blocks;
}

export interface XmlFormatOptions {
  /** Attributes whose values are translated (default `alt`, `title`; DITA: `alt`, `navtitle`). */
  readonly translatableAttributes?: readonly string[];
  /** Elements kept untranslated (default none; DITA: code and UI names such as `codeblock`, `codeph`). */
  readonly skipElements?: readonly string[];
}

const TAG =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>|<(\/?)([A-Za-z_][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

export function createXmlFormat(name: 'XML' | 'DITA', options: XmlFormatOptions = {}): DocumentFormat {
  const attributes = new Set(options.translatableAttributes ?? ['alt', 'title']);
  const skip = new Set(options.skipElements ?? []);
  return {
    name,
    maxBytes: 10 * 1024 * 1024,
    contentType: 'application/xml; charset=utf-8',
    minimumBilled: 0,
    extract(bytes) {
      const { text, bom } = decodeText(bytes, name);
      checkXml(text, `The ${name} document`, { allowExternalDtd: true });
      const marker = `glossa-${randomBytes(6).toString('hex')}`;
      const attributeValues: string[] = [];
      const kept: string[] = [];
      let body = '';
      let last = 0;
      let keepFrom = -1;
      let keepDepth = 0;
      let depth = 0;
      for (const match of text.matchAll(TAG)) {
        const [raw, slash, tagName, rest = '', selfClose] = match;
        if (tagName === undefined) continue;
        if (slash) {
          depth--;
          if (keepFrom >= 0 && depth === keepDepth) {
            kept.push(text.slice(keepFrom, match.index + raw.length));
            body += `<${marker}-k${kept.length - 1}/>`;
            last = match.index + raw.length;
            keepFrom = -1;
          }
          continue;
        }
        if (keepFrom >= 0) {
          if (!selfClose) depth++;
          continue;
        }
        if (skip.has(tagName) || /\stranslate\s*=\s*["']no["']/.test(rest)) {
          body += text.slice(last, match.index);
          if (selfClose) {
            kept.push(raw);
            body += `<${marker}-k${kept.length - 1}/>`;
            last = match.index + raw.length;
          } else {
            keepFrom = match.index;
            keepDepth = depth;
            depth++;
          }
          continue;
        }
        if (!selfClose) depth++;
        // Translatable attribute values become markers inside the tag (tags travel as codes, untouched).
        const tag = raw.replace(
          /(\s)([\w:.-]+)(\s*=\s*)("([^"]*)"|'([^']*)')/g,
          (whole, space, attribute, equals, _q, double, single) => {
            const value = decodeEntities(double ?? single ?? '');
            if (!attributes.has(attribute) || !/\p{L}/u.test(value)) return whole;
            attributeValues.push(value);
            return `${space}${attribute}${equals}"${marker}-a${attributeValues.length - 1}"`;
          },
        );
        body += text.slice(last, match.index) + tag;
        last = match.index + raw.length;
      }
      body += text.slice(last);

      const template = new Template();
      template.text(body, 'xml');
      const bodyHole = template.texts.length === 1;
      if (bodyHole) template.texts[0] = { text: body, mode: 'xml', splittingTags: blockElements(body) };
      for (const value of attributeValues) template.text(value, 'plain');
      return {
        texts: template.texts,
        rebuild(outputs) {
          const translatedBody = bodyHole ? (outputs[0] ?? body) : body;
          const values = outputs.slice(bodyHole ? 1 : 0);
          const result = translatedBody
            .replace(
              new RegExp(`<${marker}-k(\\d+)/>`, 'g'),
              (_whole, index: string) => kept[Number(index)] ?? '',
            )
            .replace(
              new RegExp(`"${marker}-a(\\d+)"`, 'g'),
              (_whole, index: string) =>
                `"${escapeAttribute(values[Number(index)] ?? attributeValues[Number(index)] ?? '')}"`,
            );
          return encodeText(result, bom);
        },
      };
    },
  };
}

/** Elements of DITA kept untranslated: code and the names of UI, files, commands and variables. */
const DITA_SKIPPED = [
  'codeblock',
  'codeph',
  'filepath',
  'cmdname',
  'varname',
  'apiname',
  'userinput',
  'systemoutput',
  'msgph',
  'msgblock',
];

export const createDitaFormat = (translatableAttributes: readonly string[] = ['alt', 'navtitle']) =>
  createXmlFormat('DITA', { translatableAttributes, skipElements: DITA_SKIPPED });

export const xmlFormat = createXmlFormat('XML');
export const ditaFormat = createDitaFormat();
