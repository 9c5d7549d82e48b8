/**
 * create-vue's router starter (`fixtures/create-vue-router`, third-party, unchanged) built as its own
 * vite.config.js builds it, less the dev-only devtools plugin (the fixture keeps no config file), for
 * @glossa/vite's size bench (plugins/vite/bench/size.ts), in the shape of the example apps' `app.config.ts`.
 */
import { fileURLToPath } from 'node:url';
import { type GlossaViteOptions, glossaVite } from '@glossa/vite';
import vue from '@vitejs/plugin-vue';
import type { UserConfig } from 'vite';

const appRoot = fileURLToPath(new URL('../fixtures/create-vue-router/', import.meta.url));
export const locales = ['es', 'en-XA'];
/** The app's product and brand names, kept as written in every locale (also third-party.test.ts's). */
export const BRANDS = [
  'Vue',
  'Vite',
  'VSCode',
  'Vitest',
  'Cypress',
  'Playwright',
  'Pinia',
  'Discord',
  'StackOverflow',
  'Bluesky',
  'README.md',
];

/** `glossa: false` builds the plain app without the plugin. */
export function appConfig(glossa: Partial<GlossaViteOptions> | false = {}, outDir = 'dist'): UserConfig {
  return {
    root: appRoot,
    logLevel: 'warn',
    resolve: { alias: { '@': `${appRoot}src` } },
    build: { outDir, emptyOutDir: true },
    plugins: [
      vue(),
      ...(glossa === false
        ? []
        : [glossaVite({ locales, configFile: false, components: true, doNotTranslate: BRANDS, ...glossa })]),
    ],
  };
}
