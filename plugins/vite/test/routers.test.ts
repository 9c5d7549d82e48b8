/**
 * React Router under the locale's folder without a change to the app (issue 30: TailAdmin's dashboard
 * renders `<BrowserRouter>` without a `basename`, so `/es/` showed its 404 route): the app's imports of
 * `react-router` resolve to a wrapper whose `BrowserRouter` / `createBrowserRouter` default the
 * `basename` to `import.meta.env.BASE_URL`.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routerWrapper, routerWrapperId } from '../src/components/routers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'glossa-routers-'));
  // Stand-ins for `react` and `react-router`: an element is its props; the router returns its options.
  const pkg = async (name: string, code: string) => {
    await mkdir(join(dir, 'node_modules', name), { recursive: true });
    await writeFile(
      join(dir, 'node_modules', name, 'package.json'),
      JSON.stringify({ name, type: 'module', main: 'index.js' }),
    );
    await writeFile(join(dir, 'node_modules', name, 'index.js'), code);
  };
  await pkg('react', 'export const createElement = (type, props) => ({ type: type.name, props });\n');
  await pkg(
    'react-router',
    [
      'export function BrowserRouter() {}',
      'export const createBrowserRouter = (routes, options) => ({ routes, options });',
      'export const Link = "Link";',
    ].join('\n'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The wrapper for `pkg` with `import.meta.env.BASE_URL` defined as `base`, imported from the folder. */
async function wrapper(base: string) {
  const id = routerWrapperId('react-router', '/app/src/App.tsx')!;
  const code = routerWrapper(id)!.replaceAll('import.meta.env.BASE_URL', JSON.stringify(base));
  const file = join(dir, `wrapper-${base.replaceAll('/', '_')}.mjs`);
  await writeFile(file, code);
  return import(pathToFileURL(file).href);
}

describe('React Router wrapper', () => {
  it("resolves the app's imports of react-router(-dom), not a dependency's nor its own", () => {
    expect(routerWrapperId('react-router', '/app/src/App.tsx')).toBe('\0glossa-router:react-router');
    expect(routerWrapperId('react-router-dom', 'C:\\app\\src\\main.jsx')).toBe(
      '\0glossa-router:react-router-dom',
    );
    expect(routerWrapperId('react-router', '/app/node_modules/some-lib/index.js')).toBeUndefined();
    expect(routerWrapperId('react-router', '\0glossa-router:react-router')).toBeUndefined();
    expect(routerWrapperId('react-router/dom', '/app/src/App.tsx')).toBeUndefined();
    expect(routerWrapperId('react', '/app/src/App.tsx')).toBeUndefined();
    expect(routerWrapper('/app/src/App.tsx')).toBeUndefined();
  });

  it("gives BrowserRouter and createBrowserRouter the locale's base as basename, keeps the app's own and the rest", async () => {
    const es = await wrapper('/es/');
    expect(es.BrowserRouter({ children: 'x' })).toEqual({
      type: 'BrowserRouter',
      props: { children: 'x', basename: '/es/' },
    });
    expect(es.BrowserRouter({ basename: '/app' })).toEqual({
      type: 'BrowserRouter',
      props: { basename: '/app' },
    });
    expect(es.createBrowserRouter(['r']).options).toEqual({ basename: '/es/' });
    expect(es.createBrowserRouter(['r'], { window: 1 }).options).toEqual({ window: 1, basename: '/es/' });
    expect(es.createBrowserRouter(['r'], { basename: '/x' }).options).toEqual({ basename: '/x' });
    expect(es.Link).toBe('Link');
    // The English build: React Router's default base.
    expect((await wrapper('/')).BrowserRouter({}).props).toEqual({ basename: '/' });
  });
});
