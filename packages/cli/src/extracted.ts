/** What an adapter reads from a file: its segments, and how to write an output from targets. */
import type { CatalogSyntaxName, CodeMap, Segment } from '@glossa/core';

/** The message syntax of a JSON file's values (`docusaurus`: Docusaurus's translation files). */
export type MessageSyntax = Exclude<CatalogSyntaxName, 'auto'>;

export interface ContentMessage {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/** A segment key whose target could not be used; it stays in the source language. */
export interface WriteProblem {
  readonly key: string;
  readonly reason: string;
}

export interface Extracted {
  readonly segments: readonly Segment[];
  readonly codes: Readonly<Record<string, CodeMap>>;
  readonly messages: readonly ContentMessage[];
  /** JSON catalogs: the message syntax the values were read in, and whether it was detected. */
  readonly syntax?: { readonly name: MessageSyntax; readonly detected: boolean };
  /** The output for `locale` with `targets` (by segment key) put in. */
  write(
    targets: ReadonlyMap<string, string>,
    locale: string,
    onProblem: (p: WriteProblem) => void,
  ): Promise<string>;
}
