/** A document as literal pieces and numbered holes, one hole per text to translate. */
import type { DocumentText } from './format.js';

type Convert = (output: string) => string;

export class Template {
  readonly texts: DocumentText[] = [];
  private readonly parts: (string | { index: number; convert: Convert | undefined })[] = [];

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

  fill(outputs: readonly string[]): string {
    return this.parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const output = outputs[part.index] ?? this.texts[part.index]!.text;
        return part.convert ? part.convert(output) : output;
      })
      .join('');
  }
}
