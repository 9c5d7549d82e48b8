/**
 * The RealWorld Conduit Vue 3 app (`fixtures/vue3-realworld`, third-party, unchanged) as its own
 * vite.config.ts builds it (less `rollup-plugin-analyzer`, which only logs sizes), with its own Vite (5),
 * for @glossa/vite's size bench (plugins/vite/bench/size.ts); its names are also `realworld.test.ts`'s.
 */
import { join, resolve } from 'node:path';
import { type GlossaViteOptions, glossaVite } from '@glossa/vite';
import vue from '@vitejs/plugin-vue5';
import type { InlineConfig } from 'vite';

export const locales = ['es', 'en-XA'];
/** The links under the app's `node_modules`: its Vite (5) and router (Vue Router 4). */
export const LINKS = { vite: 'vite5', 'vue-router': 'vue-router4' };
/** Brand and product names: kept as written in every locale (the glossary's do-not-translate list). */
export const BRANDS = [
  'conduit',
  'Conduit',
  'Thinkster',
  'MIT',
  'Vue',
  'Typescript',
  'Composition Api',
  'RealWorld',
];

/** The app's config for the app at `root`, plus Glossa unless `glossa` is false. */
export function appConfigAt(
  root: string,
  glossa: Partial<GlossaViteOptions> | false,
  outDir: string,
): InlineConfig {
  return {
    root,
    configFile: false,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    resolve: { alias: { src: join(root, 'src') } },
    plugins: [
      vue(),
      ...(glossa === false
        ? []
        : [glossaVite({ locales, configFile: false, components: true, doNotTranslate: BRANDS, ...glossa })]),
    ],
  };
}

/** For the size bench: the app copied with its links, then built with its own Vite. */
export async function prepare(work: string) {
  const { appCopy } = await import('./real-app.js');
  const { root, vite } = await appCopy('vue3-realworld', work, LINKS);
  return {
    appConfig: (glossa: Partial<GlossaViteOptions> | false = {}, outDir = 'dist') =>
      appConfigAt(root, glossa, resolve(root, outDir)),
    locales,
    build: vite.build,
  };
}
