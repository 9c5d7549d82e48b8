/**
 * `pnpm build`: the app and its Spanish and en-XA versions into dist/. `pnpm dev`: the dev server, in the
 * locale of `GLOSSA_DEV_LOCALE` (e.g. `GLOSSA_DEV_LOCALE=es pnpm dev`).
 */
import { build, createServer } from 'vite';
import { appConfig } from './app.config.js';

if (process.argv.includes('--dev')) {
  const server = await createServer({ ...appConfig(), logLevel: 'info' });
  await server.listen();
  server.printUrls();
} else {
  await build({ ...appConfig(), logLevel: 'info' });
}
