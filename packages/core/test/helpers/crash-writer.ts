// Child process for the crash-safety test: translates a catalog in one run with small waves, using the
// file cache and the lock, printing `stored <n>` (pairs translated and stored) after each wave, until the parent kills it (SIGKILL).
import {
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  openFileStore,
  TranslationLock,
} from '../../src/index.js';
import { catalog } from './catalog.js';

const [cachePath, lockPath, total] = [process.argv[2]!, process.argv[3]!, Number(process.argv[4])];
const store = await openFileStore({ path: cachePath });
const lock = await TranslationLock.open(lockPath);
const run = createTranslationRun({
  translator: createPseudoTranslator(),
  sourceLang: 'en',
  targetLangs: ['en-XA'],
  cache: createTranslationCache([store]),
  lock,
  waveBytes: 20_000,
  onEvent: (event) => {
    if (event.type === 'wave') process.stdout.write(`stored ${event.translated}\n`);
  },
});
await run.translate({ segments: catalog(total) });
process.stdout.write('finished\n');
