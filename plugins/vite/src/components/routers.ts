/**
 * React Router under a locale's folder, without a change to the app. An app that renders
 * `<BrowserRouter>` (or calls `createBrowserRouter`) without a `basename` matches its routes against the
 * whole path, so `/es/calendar` matched nothing and showed its 404 route. In a component build the
 * app's imports of `react-router` / `react-router-dom` resolve to a small module that re-exports the
 * package and gives these two a default `basename` of `import.meta.env.BASE_URL`, which is the
 * locale's folder in a locale build (`/es/`) and the base in the English one (`/`: React Router's own
 * default). A `basename` the app passes is kept. Imports from dependencies are left alone.
 */

const PREFIX = '\0glossa-router:';
const PACKAGES = /^react-router(-dom)?$/;

/** The resolveId filter's pattern for the router packages. */
export const ROUTER_IMPORT = PACKAGES;

/** The wrapper's id for an app's import of a router package, or undefined (a dependency's import, another id). */
export function routerWrapperId(source: string, importer: string | undefined): string | undefined {
  if (
    !PACKAGES.test(source) ||
    !importer ||
    importer.startsWith(PREFIX) ||
    /[\\/]node_modules[\\/]/.test(importer)
  ) {
    return undefined;
  }
  return PREFIX + source;
}

/** The wrapper module's code for its id, or undefined for other ids. */
export function routerWrapper(id: string): string | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const pkg = JSON.stringify(id.slice(PREFIX.length));
  return [
    `import { createElement } from 'react';`,
    `import { BrowserRouter as Browser, createBrowserRouter as createBrowser } from ${pkg};`,
    `export * from ${pkg};`,
    'const base = import.meta.env.BASE_URL;',
    'export function BrowserRouter(props) {',
    '  return createElement(Browser, props.basename === undefined ? { ...props, basename: base } : props);',
    '}',
    'export function createBrowserRouter(routes, options) {',
    '  return createBrowser(routes, options?.basename === undefined ? { ...options, basename: base } : options);',
    '}',
    '',
  ].join('\n');
}
