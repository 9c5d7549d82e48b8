/**
 * Issue 30's two real apps for the benches (size.ts, real-apps-build.ts), each built with its own Vite:
 * TailAdmin's React dashboard (Vite 6) and the RealWorld Conduit Vue app (Vite 5), copied into
 * `tests/vite-apps/.tmp-bench-<app>` with their Vite and router linked (tests/vite-apps/test/real-app.ts).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GlossaViteOptions } from '@glossa/vite';
import type { build, UserConfig } from 'vite';

export type AppConfig = (glossa: Partial<GlossaViteOptions> | false, outDir: string) => UserConfig;
/** An app: its config, its locales, and the app's own Vite's `build` when it is not this package's (8). */
export type App = { appConfig: AppConfig; locales: string[]; build?: typeof build };

const viteApps = fileURLToPath(new URL('../../../tests/vite-apps/', import.meta.url));
const works: string[] = [];
/** A real app's copy lives under tests/vite-apps (its dependencies resolve from there); see `removeCopies`. */
const realApp = async (name: string): Promise<App> => {
  const { prepare } = (await import(new URL(`test/${name}.config.ts`, `file://${viteApps}`).href)) as {
    prepare: (work: string) => Promise<App>;
  };
  const work = join(viteApps, `.tmp-bench-${name}`);
  await rm(work, { recursive: true, force: true });
  works.push(work);
  return prepare(work);
};
/** Issue 30's real apps, unchanged, each with its own Vite (tests/vite-apps/fixtures/tailadmin-react, vue3-realworld). */
export const REAL_APPS: Record<string, () => Promise<App>> = {
  'TailAdmin React dashboard': () => realApp('tailadmin'),
  'RealWorld Conduit Vue app': () => realApp('realworld'),
};
/** Removes the real apps' copies made so far. */
export async function removeCopies() {
  for (const work of works.splice(0)) await rm(work, { recursive: true, force: true });
}
