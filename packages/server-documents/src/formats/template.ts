/** A document as literal pieces and numbered holes, one hole per text to translate. */
import type { DocumentText } from './format.js';

type Convert = (output: string) => string;

/** Marks, in a piece's bytes, where the fill of its `k`th nested template goes (`\0` is not XML text). */
export const nestedMarker = (k: number) => `<_glossa_nested_${k}\u0000/>`;

interface Nest {
  readonly head: Template;
  readonly children: readonly Template[];
  readonly offset: number;
}

export class Template {
  readonly texts: DocumentText[] = [];
  private readonly parts: (string | Nest | { index: number; convert: Convert | undefined })[] = [];

  literal(text: string): void {
    if (text !== '') this.parts.push(text);
  }

  /**
   * A hole for `text`; `convert` turns its translation (or the text itself, when it has no letter and so
   * nothing to translate) into the document's bytes.
   */
  text(text: string, mode: DocumentText['mode'] = 'plain', convert?: Convert): void {
    if (!/\p{L}/u.test(text)) {
      this.literal(convert ? convert(text) : text);
      return;
    }
    this.parts.push({ index: this.texts.length, convert });
    this.texts.push({ text, mode });
  }

  /**
   * `head`, with each `nestedMarker(k)` in its bytes replaced by the fill of `children[k]` (a text box's
   * paragraphs inside a paragraph). The texts are the head's, then each child's, in order.
   */
  nest(head: Template, children: readonly Template[]): void {
    const offset = this.texts.length;
    this.texts.push(...head.texts, ...children.flatMap((child) => child.texts));
    this.parts.push({ head, children, offset });
  }

  fill(outputs: readonly string[]): string {
    return this.parts
      .map((part) => {
        if (typeof part === 'string') return part;
        if ('head' in part) {
          let at = part.offset;
          const take = (template: Template) => {
            const filled = template.fill(outputs.slice(at, at + template.texts.length));
            at += template.texts.length;
            return filled;
          };
          let xml = take(part.head);
          part.children.forEach((child, k) => {
            xml = xml.split(nestedMarker(k)).join(take(child));
          });
          return xml;
        }
        const output = outputs[part.index] ?? this.texts[part.index]!.text;
        return part.convert ? part.convert(output) : output;
      })
      .join('');
  }
}
