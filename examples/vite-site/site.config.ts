/** The example site's Vite config, shared by `vite.config.ts`, the test and the benchmark. */
import { fileURLToPath } from 'node:url';
import { type GlossaViteOptions, glossaVite } from '@glossa/vite';
import type { UserConfig } from 'vite';

export const siteRoot = fileURLToPath(new URL('.', import.meta.url));
export const locales = ['es', 'en-XA'];

/** `glossa: false` builds the plain site without the plugin. */
export function siteConfig(glossa: Partial<GlossaViteOptions> | false = {}, outDir = 'dist'): UserConfig {
  return {
    root: siteRoot,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      assetsInlineLimit: 0, // the logo stays a file, so the test sees assets load in every locale
      rollupOptions: {
        input: { index: `${siteRoot}index.html`, about: `${siteRoot}about.html` },
      },
    },
    plugins:
      glossa === false
        ? []
        : [glossaVite({ locales, configFile: false, catalogs: { source: 'locales/en' }, ...glossa })],
  };
}
