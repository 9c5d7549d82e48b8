/** `pnpm build`: builds the site with its Spanish and en-XA versions into dist/. `pnpm dev`: the dev server. */
import { build, createServer } from 'vite';
import { siteConfig } from './site.config.js';

if (process.argv.includes('--dev')) {
  const server = await createServer({ ...siteConfig(), logLevel: 'info' });
  await server.listen();
  server.printUrls();
  console.log('Localized pages: /es/, /en-XA/ (and /es/about.html, …)');
} else {
  await build({ ...siteConfig(), logLevel: 'info' });
}
