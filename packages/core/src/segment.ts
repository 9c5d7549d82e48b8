/**
 * The Segment model shared by core and every adapter (DESIGN.md, "How text flows").
 *
 * `source` is one translatable unit written as XLIFF-style inline XML: text is XML-escaped
 * (`&lt;`, `&amp;`), paired markup is `<g id="1">…</g>`, standalone codes (an image, `{{count}}`, `%s`)
 * are `<x id="2"/>`. Only ids travel to the service; the original bytes of each code stay with the
 * adapter (see `CodeMap`). Translations come back in the same form and are checked before use.
 */
export interface Segment {
  /** Stable identity for the lock: the file's path plus a key path or position inside it. */
  readonly key: string;
  /** Source text with inline codes (see above). */
  readonly source: string;
  /** Sent as the `context` parameter: influences translation, not translated, not billed. */
  readonly context?: string;
  /** Maximum length of the target in characters, where the format knows one. */
  readonly maxLength?: number;
  /** Notes for human translators (XLIFF `<note>`). */
  readonly notes?: readonly string[];
  /** Where the segment starts in its file, for positioned messages. */
  readonly position?: { readonly line: number; readonly column: number; readonly offset?: number };
}

/** A segment plus the file it came from (for a run's reports). */
export interface RunSegment extends Segment {
  readonly file?: string;
}

/** The original bytes of each inline code of a segment, by id, kept by the adapter that made it. */
export interface InlineCode {
  /** `g`: paired (`open` + `close` around content); `x`: standalone (`text`). */
  readonly kind: 'g' | 'x';
  readonly open?: string;
  readonly close?: string;
  readonly text?: string;
}
export type CodeMap = Readonly<Record<string, InlineCode>>;
