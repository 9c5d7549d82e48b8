/**
 * XLIFF 1.2 and 2.x: the content of each `<source>` (inline elements become codes) is translated and
 * written to its `<target>` (replaced when present, added after the source otherwise); units marked
 * `translate="no"` are left alone; the target language is set on `<file>` (1.2) or `<xliff>` (2.x).
 */
import { type DocumentFormat, DocumentFormatError, decodeText, encodeText } from './format.js';
import { escapeAttribute } from './inline.js';
import { Template } from './template.js';
import { checkXml } from './xml-check.js';

const UNIT = /<(trans-unit|segment)\b([^>]*)>([\s\S]*?)<\/\1>/g;
const SOURCE = /<source\b([^>]*)>([\s\S]*?)<\/source>/;
const TARGET = /<target\b[^>]*>[\s\S]*?<\/target>|<target\b[^>]*\/>/;

/** Sets (or adds) the target language attribute of the root, once the target is known. */
function withTargetLanguage(xml: string, target: string | undefined): string {
  if (!target) return xml;
  const v2 = /<xliff\b[^>]*\bversion="2/.test(xml);
  const [element, attribute] = v2 ? ['xliff', 'trgLang'] : ['file', 'target-language'];
  const open = new RegExp(`<${element}\\b[^>]*>`, 'g');
  return xml.replace(open, (tag) => {
    const existing = new RegExp(`\\s${attribute}="[^"]*"`);
    const value = ` ${attribute}="${escapeAttribute(target)}"`;
    return existing.test(tag) ? tag.replace(existing, value) : tag.replace(/\s*(\/?)>$/, `${value}$1>`);
  });
}

export function createXliffFormat(name: 'XLF' | 'XLIFF'): DocumentFormat {
  return {
    name,
    maxBytes: 10 * 1024 * 1024,
    contentType: 'application/xliff+xml; charset=utf-8',
    minimumBilled: 0,
    extract(bytes, options) {
      const { text, bom } = decodeText(bytes, name);
      checkXml(text, `The ${name} document`);
      if (!/<xliff\b/.test(text))
        throw new DocumentFormatError(`The ${name} document has no <xliff> root element.`);
      const template = new Template();
      let last = 0;
      for (const unit of text.matchAll(UNIT)) {
        const [whole, , attributes = '', body = ''] = unit;
        const source = SOURCE.exec(body);
        if (!source || /\btranslate="no"/.test(attributes)) continue;
        const bodyStart = unit.index + whole.indexOf('>') + 1;
        const sourceEnd = bodyStart + source.index + source[0].length;
        const target = TARGET.exec(body.slice(source.index + source[0].length));
        template.literal(text.slice(last, sourceEnd));
        const sourceAttributes = source[1]!.replace(/\s*\/$/, '');
        const openTarget = `<target${sourceAttributes.replace(/\s(xml:)?lang="[^"]*"/, '')}>`;
        if (target) {
          const targetStart = sourceEnd + target.index;
          template.literal(text.slice(sourceEnd, targetStart));
          template.text(source[2]!, 'xml', (output) => `${openTarget}${output}</target>`);
          last = targetStart + target[0].length;
        } else {
          template.text(source[2]!, 'xml', (output) => `\n${openTarget}${output}</target>`);
          last = sourceEnd;
        }
      }
      template.literal(text.slice(last));
      return {
        texts: template.texts,
        rebuild: (outputs) => encodeText(withTargetLanguage(template.fill(outputs), options.targetLang), bom),
      };
    },
  };
}
