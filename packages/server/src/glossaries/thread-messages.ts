/** What the main thread and the glossary worker thread (`thread.ts`, `worker.ts`) send each other. */
import type { EntriesFormat } from '@glossa/protocol';
import type { WordIndexData } from './candidates.js';

/** Characters per piece of a string sent to or from the thread. */
export const PIECE = 256 * 1024;

export type ToGlossaryWorker =
  | { readonly type: 'piece'; readonly id: number; readonly piece: string }
  | {
      readonly type: 'parse';
      readonly id: number;
      readonly format: EntriesFormat;
      readonly pair: { readonly source_lang: string; readonly target_lang: string };
    }
  | { readonly type: 'words'; readonly id: number };

export type FromGlossaryWorker =
  | { readonly type: 'piece'; readonly id: number; readonly piece: string }
  | {
      readonly type: 'parsed';
      readonly id: number;
      readonly ok: true;
      readonly count: number;
      /** Whether the TSV (sent back in pieces) is the text as sent, which then was not sent back. */
      readonly same: boolean;
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
