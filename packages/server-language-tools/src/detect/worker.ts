/**
 * The thread of language detection (started by thread.ts): it loads the detectors (eld's large n-gram
 * database and cld3's WebAssembly build: seconds of parsing and compiling, some 400 MB) off the server's event
 * loop, says `ready`, then answers each batch of texts with their results, in order.
 */
import { parentPort } from 'node:worker_threads';
import { createLanguageDetector } from './detector.js';

const port = parentPort!;
try {
  const detector = await createLanguageDetector();
  port.on('message', ({ id, texts }: { id: number; texts: string[] }) => {
    try {
      port.postMessage({ id, results: texts.map((text) => detector.detect(text)) });
    } catch (error) {
      port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ fatal: error instanceof Error ? error.message : String(error) });
}
