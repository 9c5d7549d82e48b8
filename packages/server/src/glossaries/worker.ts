/**
 * The glossary worker thread (started by thread.ts): parses entries as sent into canonical TSV, and builds
 * word indexes. Long strings come and go in pieces (see thread.ts); the word index goes back as arrays
 * handed over without a copy.
 */
import { parentPort } from 'node:worker_threads';
import { formatGlossaryEntries, parseGlossaryEntries } from '@glossa/protocol';
import { lowerThreadPriority } from '../thread-priority.js';
import { buildWordIndex, WordIndex } from './candidates.js';
import { type FromGlossaryWorker, PIECE, type ToGlossaryWorker } from './thread-messages.js';

// Parsing a 10 MiB glossary takes seconds of a core: the event loop comes first (thread-priority.ts).
lowerThreadPriority();

const port = parentPort!;
const texts = new Map<number, string[]>();
const post = (message: FromGlossaryWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

function answer(message: Exclude<ToGlossaryWorker, { type: 'piece' }>, text: string): void {
  const id = message.id;
  if (message.type === 'parse') {
    const result = parseGlossaryEntries(text, message.format, message.pair);
    if (!result.ok) {
      post({ type: 'parsed', id, ok: false, message: result.message, detail: result.detail });
      return;
    }
    const tsv = formatGlossaryEntries(result.entries);
    const same = tsv === text;
    if (!same)
      for (let at = 0; at < tsv.length; at += PIECE)
        post({ type: 'piece', id, piece: tsv.slice(at, at + PIECE) });
    post({ type: 'parsed', id, ok: true, count: result.entries.length, same });
    return;
  }
  const sources = text === '' ? [] : text.split('\n');
  const data = buildWordIndex(sources.length, (index) => sources[index]!);
  post({ type: 'words', id, data }, WordIndex.transferables(data));
}

port.on('message', (message: ToGlossaryWorker) => {
  if (message.type === 'piece') {
    const pieces = texts.get(message.id);
    if (pieces) pieces.push(message.piece);
    else texts.set(message.id, [message.piece]);
    return;
  }
  const text = (texts.get(message.id) ?? []).join('');
  texts.delete(message.id);
  try {
    answer(message, text);
  } catch (error) {
    post({ type: 'failed', id: message.id, message: (error as Error).message });
  }
});
