/** The example app's Vite config, shared by `build.ts`, the test and the benchmark. */
import { fileURLToPath } from 'node:url';
import { type GlossaViteOptions, glossaVite } from '@glossa/vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { UserConfig } from 'vite';

export const appRoot = fileURLToPath(new URL('.', import.meta.url));
export const locales = ['es', 'en-XA'];

/** `glossa: false` builds the plain app without the plugin. */
export function appConfig(glossa: Partial<GlossaViteOptions> | false = {}, outDir = 'dist'): UserConfig {
  return {
    root: appRoot,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      rolldownOptions: {
        // Svelte in a chunk of its own: the same file in every locale, so a locale switch loads only
        // the app's chunk (the components and their text).
        output: { codeSplitting: { groups: [{ name: 'svelte', test: /node_modules/ }] } },
      },
    },
    plugins: [
      svelte(),
      ...(glossa === false ? [] : [glossaVite({ locales, configFile: false, components: true, ...glossa })]),
    ],
  };
}
