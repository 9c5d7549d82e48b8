/**
 * The glossary worker thread (started by thread.ts): parses entries as sent into canonical TSV, and builds
 * word indexes. Texts come and go as UTF-8 bytes moved between the threads (see thread.ts); the word index
 * goes back as arrays handed over without a copy.
 */
import { parentPort } from 'node:worker_threads';
import { formatGlossaryEntries, parseGlossaryEntries } from '@glossa/protocol';
import { lowerThreadPriority } from '../thread-priority.js';
import { buildWordIndex, WordIndex } from './candidates.js';
import type { FromGlossaryWorker, ToGlossaryWorker } from './thread-messages.js';

// Parsing a 10 MiB glossary takes seconds of a core: the event loop comes first (thread-priority.ts).
lowerThreadPriority();

const port = parentPort!;
const post = (message: FromGlossaryWorker, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);
const decoder = new TextDecoder();

function answer(message: ToGlossaryWorker): void {
  const id = message.id;
  if (message.type === 'parse') {
    const text = decoder.decode(message.bytes);
    const result = parseGlossaryEntries(text, message.format, message.pair);
    if (!result.ok) {
      post({ type: 'parsed', id, ok: false, message: result.message, detail: result.detail });
      return;
    }
    const tsv = formatGlossaryEntries(result.entries);
    // Entries sent in canonical form go back as they came.
    const bytes = tsv === text ? message.bytes : new TextEncoder().encode(tsv);
    post({ type: 'parsed', id, ok: true, count: result.entries.length, tsv: bytes }, [
      bytes.buffer as ArrayBuffer,
    ]);
    return;
  }
  const text = decoder.decode(message.tsv);
  const lines = text === '' ? [] : text.split('\n');
  // A dictionary's line is `source<TAB>target` (one without a tab has an empty source, as in `EntryTable`).
  const data = buildWordIndex(lines.length, (index) => {
    const line = lines[index]!;
    const tab = line.indexOf('\t');
    return tab < 0 ? '' : line.slice(0, tab);
  });
  post({ type: 'words', id, data }, WordIndex.transferables(data));
}

port.on('message', (message: ToGlossaryWorker) => {
  try {
    answer(message);
  } catch (error) {
    post({ type: 'failed', id: message.id, message: (error as Error).message });
  }
});
