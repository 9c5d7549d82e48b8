// Child process for the crash-safety test: translates chunks of a catalog with the file cache and the
// lock, printing `chunk <n>` after each chunk is stored, until the parent kills it with SIGKILL.
import {
  createPseudoTranslator,
  createTranslationCache,
  createTranslationRun,
  openFileStore,
  TranslationLock,
} from '../../src/index.js';
import { catalog } from './catalog.js';

const [cachePath, lockPath, total, chunkSize] = [
  process.argv[2]!,
  process.argv[3]!,
  Number(process.argv[4]),
  Number(process.argv[5]),
];
const store = await openFileStore({ path: cachePath });
const cache = createTranslationCache([store]);
const lock = await TranslationLock.open(lockPath);
const run = createTranslationRun({
  translator: createPseudoTranslator(),
  sourceLang: 'en',
  targetLangs: ['en-XA'],
  cache,
  lock,
});
const segments = catalog(total);
for (let i = 0; i * chunkSize < total; i++) {
  await run.translate({ segments: segments.slice(i * chunkSize, (i + 1) * chunkSize) });
  process.stdout.write(`chunk ${i}\n`);
}
process.stdout.write('finished\n');
