/**
 * TailAdmin's React dashboard (`fixtures/tailadmin-react`, third-party, unchanged) as its own
 * vite.config.ts builds it, with its own Vite (6), for @glossa/vite's size bench (plugins/vite/bench/size.ts)
 * in the shape of the example apps' `app.config.ts`; its names are also `tailadmin.test.ts`'s. The app is
 * copied into `.tmp-bench-tailadmin/app` with its Vite and router linked (see `real-app.ts`).
 */
import { resolve } from 'node:path';
import { type GlossaViteOptions, glossaVite } from '@glossa/vite';
import react from '@vitejs/plugin-react4';
import type { InlineConfig } from 'vite';
import svgr from 'vite-plugin-svgr';

export const locales = ['es', 'en-XA'];
/** The links under the app's `node_modules`: its Vite (6) and router (React Router 7). */
export const LINKS = { vite: 'vite6', 'react-router': 'react-router7' };
/** Brand, product and person names: kept as written in every locale (the glossary's do-not-translate list). */
export const BRANDS = [
  'TailAdmin',
  'Tailwind CSS',
  'Tailwind',
  'React',
  'Musharof Chowdhury',
  'Musharof',
  'Facebook',
  'X.com',
  'Linkedin',
  'Instagram',
  'Google',
  'Apple Watch',
  'MacBook Pro',
  'iPhone',
  'Macbook',
  'Airpods',
];

/** The app's plugins (its vite.config.ts), plus Glossa unless `glossa` is false. */
export function plugins(glossa: Partial<GlossaViteOptions> | false) {
  return [
    react(),
    svgr({ svgrOptions: { icon: true, exportType: 'named', namedExport: 'ReactComponent' } }),
    ...(glossa === false
      ? []
      : [glossaVite({ locales, configFile: false, components: true, doNotTranslate: BRANDS, ...glossa })]),
  ];
}

/** For the size bench: the app copied with its links (`prepare`), then built with its own Vite. */
export async function prepare(work: string) {
  const { appCopy } = await import('./real-app.js');
  const { root, vite } = await appCopy('tailadmin-react', work, LINKS);
  const appConfig = (glossa: Partial<GlossaViteOptions> | false = {}, outDir = 'dist'): InlineConfig => ({
    root,
    configFile: false,
    logLevel: 'warn',
    build: { outDir: resolve(root, outDir), emptyOutDir: true, chunkSizeWarningLimit: 4000 },
    plugins: plugins(glossa),
  });
  return { appConfig, locales, build: vite.build };
}
