/**
 * A Node app written in English (locales/en/*.json) whose translators have done half of the Spanish
 * (locales/es/common.json): @glossa/i18next serves their values unchanged and machine translates only the
 * keys missing there, at run time (embedded server with Apertium unless GLOSSA_SERVER_URL is set;
 * translations cached in .glossa/cache.jsonl; the machine translated keys written to review/<lng>/<ns>.json
 * for a person). `pnpm start [language]`, default es.
 */
import { fileURLToPath } from 'node:url';
import { openConfiguredCache, resolveConfig } from '@glossa/core';
import { GlossaBackend } from '@glossa/i18next';
import i18next from 'i18next';

const here = fileURLToPath(new URL('..', import.meta.url));

export async function renderStrings(
  language: string,
  options: { cachePath?: string; dataDir?: string; reviewDir?: string } = {},
) {
  const config = resolveConfig(
    { cache: { path: options.cachePath ?? '.glossa/cache.jsonl' } },
    { root: here },
  );
  const cache = await openConfiguredCache(config);
  const i18n = i18next.createInstance();
  await i18n.use(GlossaBackend).init({
    lng: language,
    fallbackLng: 'en',
    ns: ['common'],
    defaultNS: 'common',
    backend: {
      sourceLang: 'en',
      // The app's catalogs: en is the source; a language's own file (es) is read first, its values kept.
      loadPath: `${here}locales/{{lng}}/{{ns}}.json`,
      reviewPath: `${options.reviewDir ?? `${here}review`}/{{lng}}/{{ns}}.json`,
      cache,
      ...(options.dataDir !== undefined && { service: { dataDir: options.dataDir } }),
    },
  });
  const lines = [
    i18n.t('title'),
    i18n.t('welcome', { name: 'Ana' }),
    i18n.t('basket.apples', { count: 1 }),
    i18n.t('basket.apples', { count: 5 }),
    i18n.t('opening', { time: '9:00' }),
  ];
  await (i18n.services.backendConnector.backend as GlossaBackend).close();
  await cache.close();
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await renderStrings(process.argv[2] ?? 'es')) console.log(line);
}
