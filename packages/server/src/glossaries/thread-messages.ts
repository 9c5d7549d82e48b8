/** What the main thread and the glossary worker thread (`thread.ts`, `worker.ts`) send each other. */
import type { EntriesFormat } from '@glossa/protocol';
import type { WordIndexData } from './candidates.js';

/** Texts cross as UTF-8 bytes whose memory is moved, not copied (`transfer`). */
export type ToGlossaryWorker =
  | {
      readonly type: 'parse';
      readonly id: number;
      /** The entries as sent. */
      readonly bytes: Uint8Array;
      readonly format: EntriesFormat;
      readonly pair: { readonly source_lang: string; readonly target_lang: string };
    }
  /** A dictionary's canonical TSV: the word index of its sources. */
  | { readonly type: 'words'; readonly id: number; readonly tsv: Uint8Array };

export type FromGlossaryWorker =
  | {
      readonly type: 'parsed';
      readonly id: number;
      readonly ok: true;
      readonly count: number;
      /** The canonical TSV (`formatGlossaryEntries`). */
      readonly tsv: Uint8Array;
    }
  | {
      readonly type: 'parsed';
      readonly id: number;
      readonly ok: false;
      readonly message: string;
      readonly detail: string;
    }
  | { readonly type: 'words'; readonly id: number; readonly data: WordIndexData }
  | { readonly type: 'failed'; readonly id: number; readonly message: string };
