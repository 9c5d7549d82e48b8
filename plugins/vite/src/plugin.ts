/**
 * `glossaVite()`: localizes the site's HTML pages at build time (`dist/<locale>/…`) and serves localized
 * pages under `/<locale>/` in the dev server. Options override the project's `glossa.config.*`.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ResolvedConfig as GlossaResolvedConfig, RunEvent, RunFailure } from '@glossa/core';
import type { Connect, Plugin, ResolvedConfig, Rollup, ViteDevServer } from 'vite';
import { emitCatalogs } from './catalogs.js';
import {
  extractComponent,
  isComponentFile,
  type KeyedUnit,
  localizeModule,
  prepareModule,
  scriptOptionsOf,
} from './components/extract.js';
import {
  buildFingerprint,
  buildLocale,
  chunkOf,
  type LocaleBuild,
  localeBuilds,
  packFiles,
  targetsFingerprint,
  unpackFiles,
  vendorChunkConfig,
} from './components/locale-builds.js';
import { ROUTER_IMPORT, routerWrapper, routerWrapperId } from './components/routers.js';
import { loadParser, localeLinkEdits, parseChunk } from './components/script.js';
import { sfcLinkEdits } from './components/sfc.js';
import { type BuiltFiles, canShare, type LocaleOutput, shareChunks } from './components/shared-chunks.js';
import { catalogPath, translateComponents } from './components/translate.js';
import { createUnitCache, type UnitCache } from './components/unit-cache.js';
import { applyEdits } from './components/units.js';
import { basePath, type LinkOptions, outputPath } from './links.js';
import { type Alternate, describeReport, localizePages, type Page, withAlternates } from './localize.js';
import { type GlossaViteOptions, requestOptionsOf, resolveGlossaConfig } from './options.js';
import { openSession, type Session } from './service.js';

export function glossaVite(options: GlossaViteOptions = {}): Plugin {
  const output = options.output ?? '{locale}/{path}';
  if (!output.includes('{locale}') || !output.includes('{path}')) {
    throw new TypeError(
      `glossaVite: \`output\` must contain {locale} and {path}, got ${JSON.stringify(output)}`,
    );
  }
  const cacheOnly = options.cacheOnly ?? process.env.GLOSSA_CACHE_ONLY === '1';
  let vite: ResolvedConfig;
  /** package.json `name` beside the Vite root: a page title that is exactly it stays untranslated. */
  let projectName: string | undefined;
  let glossa: GlossaResolvedConfig;
  let locales: readonly string[] = [];
  const componentOptions =
    options.components === true ? {} : options.components ? options.components : undefined;
  const scriptOptions = componentOptions && scriptOptionsOf(componentOptions);
  /** In a locale build: where JSX links to the app's routes point (`localeLinkEdits`). */
  let localeLinks: { prefix: string; folder: string } | undefined;
  /** Set when this instance runs inside a locale build (see `buildLocale`). */
  let localeBuild: LocaleBuild | undefined;
  /** The source build: each component module's units. */
  const moduleUnits = new Map<string, (KeyedUnit & { file: string })[]>();
  /** The source build's units of unchanged modules, from the last build (file cache only). */
  let unitCache: UnitCache | undefined;
  /** Dev server: modules whose text was localized, reloaded when a catalog changes. */
  const devModules = new Set<string>();
  let devLocale: string | undefined;
  /** Every locale's folder (`es/`), from the output layout. */
  const localeFolders = () =>
    locales.map((l) => outputPath(output, l, 'index.html').replace(/index\.html$/, ''));
  const catalogDir = () => resolve(vite.root, componentOptions?.catalogDir ?? 'locales/components');
  const fileOf = (id: string) => relative(vite.root, id).split(sep).join('/');

  const log = (message: string) => vite.logger.info(message, { timestamp: true });
  const onEvent = (event: RunEvent) => {
    if (event.type === 'cache' && event.misses > 0) {
      log(`glossa: ${event.hits} from cache, ${event.misses} to translate`);
    } else if (event.type === 'request') {
      const failed = event.error ? ` failed: ${event.error.message}` : '';
      log(`glossa: request ${event.done} (${event.texts} texts, ${event.bytes} bytes)${failed}`);
    }
  };
  const localeHref = (locale: string | undefined, path: string) => {
    const file = locale === undefined ? path : outputPath(output, locale, path);
    const href = `${vite.base}${file.replace(/(^|\/)index\.html$/, '$1')}`;
    return options.siteUrl ? new URL(href, options.siteUrl).href : href;
  };
  const alternatesOf = (path: string): Alternate[] => [
    { lang: glossa.sourceLang, href: localeHref(undefined, path) },
    ...locales.map((locale) => ({ lang: locale, href: localeHref(locale, path) })),
  ];
  // The dev server's session, opened on the first request that needs it and closed (awaited) with the
  // server. No result cache: a page is made on each request, from the translation cache.
  let devSession: Session | undefined;
  let devSessionClosed: Promise<void> | undefined;
  const closeDevSession = () => {
    devSessionClosed ??= devSession?.close() ?? Promise.resolve();
    return devSessionClosed;
  };
  const openDevSession = () => {
    devSession ??= openSession(glossa, { cacheOnly, results: false });
    return devSession;
  };
  const localizeOptions = (session: Session, links?: LinkOptions) => ({
    session,
    sourceLang: glossa.sourceLang,
    locales,
    cacheOnly,
    onEvent,
    requestOptions: requestOptionsOf(glossa),
    doNotTranslate: glossa.doNotTranslate,
    ...(projectName && { projectName }),
    ...(links && { links }),
  });

  const plugin: Plugin = {
    name: 'glossa',
    enforce: 'post',
    api: { options },

    async config(user, env) {
      localeBuild = localeBuilds.getStore();
      const vendor =
        scriptOptions && env.command === 'build' && options.vendorChunk !== false
          ? await vendorChunkConfig(user)
          : undefined;
      if (!localeBuild) return vendor;
      // The locale's folder is the app's base for its router (`basename={import.meta.env.BASE_URL}`,
      // `createWebHistory(import.meta.env.BASE_URL)`); asset URLs keep the real base, so the chunks
      // without text stay the same files in every locale.
      const base = user.base && /^(\/|https?:)/.test(user.base) ? user.base : '/';
      const folder = outputPath(output, localeBuild.locale, 'index.html').replace(/index\.html$/, '');
      localeLinks = { prefix: basePath(base), folder };
      return {
        ...vendor,
        define: { 'import.meta.env.BASE_URL': JSON.stringify(`${basePath(base)}${folder}`) },
      };
    },

    resolveId: {
      order: 'pre',
      // Hook filters: Rolldown calls the plugin only for these ids, not for every module.
      filter: { id: [/^@glossa\/vite\/runtime$/, ROUTER_IMPORT] },
      handler(id, importer) {
        if (id === '@glossa/vite/runtime') return RUNTIME;
        // Every build of a component app (the English one too, so the chunks differ in text only).
        return scriptOptions && vite.command === 'build' ? routerWrapperId(id, importer) : undefined;
      },
    },

    load: {
      filter: { id: /^\0glossa-router:/ },
      handler: (id) => routerWrapper(id),
    },

    transform: {
      order: 'pre',
      filter: { id: { include: COMPONENT_ID, exclude: /\/node_modules\/|^\0/ } },
      async handler(original, id) {
        if (!scriptOptions || id.startsWith('\0')) return null;
        const source = vite.command === 'build' && !localeBuild;
        const path = componentPath(id);
        if (path === undefined || !isComponentFile(path)) return null;
        const file = fileOf(path);
        // Every build compiles the prepared module (the English one too), so locale chunks differ in text only.
        const prepared = await prepareModule(id, file, original, scriptOptions);
        const code = prepared?.code ?? original;
        if (source) {
          if (!unitCache && glossa.cache.store === 'file') {
            unitCache = createUnitCache(glossa.cache.path, scriptOptions);
          }
          let found = unitCache?.get(file, code);
          if (!found) {
            found = await extractComponent(file, code, scriptOptions);
            unitCache?.set(file, code, found);
          }
          moduleUnits.set(
            id,
            found.map((u) => ({ ...u, file })),
          );
          return prepared;
        }
        const units = await extractComponent(file, code, scriptOptions);
        if (units.length === 0) {
          const linked = localeLinks ? await withLocaleLinks(code, file, localeLinks, localeFolders()) : code;
          return linked === code ? prepared : { code: linked, map: null };
        }
        let targets: ReadonlyMap<string, string> | undefined = localeBuild?.targets;
        if (!localeBuild && devLocale) {
          devModules.add(id);
          const run = await translateComponents(
            units.map((u) => ({ ...u, file })),
            { ...componentRunOptions(openDevSession()), locales: [devLocale], write: false },
          );
          warnAll(run.problems);
          warnAll(run.report.failures);
          targets = run.targets.get(devLocale);
        }
        if (!targets) return prepared;
        const localized = localizeModule(code, units, (key) => targets.get(key));
        for (const p of localized.problems) {
          this.warn(
            `${file}:${p.position.line}:${p.position.column}: ${p.key}: ${p.reason} (kept in ${glossa.sourceLang})`,
          );
        }
        const linked = localeLinks
          ? await withLocaleLinks(localized.code, file, localeLinks, localeFolders())
          : localized.code;
        return linked === original ? null : { code: linked, map: null };
      },
    },

    async configResolved(config) {
      vite = config;
      if (scriptOptions) stableVueIds(config);
      glossa = await resolveGlossaConfig(options, config.root);
      projectName = await readFile(join(config.root, 'package.json'), 'utf8')
        .then((text) => (JSON.parse(text) as { name?: unknown }).name)
        .then((name) => (typeof name === 'string' ? name : undefined))
        .catch(() => undefined);
      locales = glossa.targetLocales;
      if (locales.length === 0) {
        throw new TypeError('glossaVite: no locales: set `locales` or `targetLocales` in glossa.config');
      }
      const dev = options.devLocale ?? process.env.GLOSSA_DEV_LOCALE;
      devLocale = dev && dev !== glossa.sourceLang ? dev : undefined;
      if (config.command === 'build' && !/^(\/|https?:)/.test(config.base)) {
        throw new TypeError(
          `glossaVite: \`base\` must be absolute ("/" or a URL) so asset URLs work in every locale's folder, got ${JSON.stringify(config.base)}`,
        );
      }
    },

    generateBundle: {
      order: 'post',
      async handler(_outputOptions, bundle) {
        // `this.environment` since Vite 6; Vite 5 builds the client unless `build.ssr` is set.
        const environment = (this as { environment?: { name: string } }).environment;
        if ((environment ? environment.name !== 'client' : vite.build.ssr) || localeBuild) return;
        const htmlAssets = Object.values(bundle).filter(
          (item) => item.type === 'asset' && item.fileName.endsWith('.html'),
        );
        const pages: Page[] = htmlAssets.map((item) => ({
          path: item.fileName,
          html: String(item.type === 'asset' ? asText(item.source) : ''),
        }));
        const session = openSession(glossa, { cacheOnly });
        try {
          if (pages.length > 0) {
            const paths = new Set(pages.map((page) => page.path));
            const links: LinkOptions = {
              base: vite.base,
              output,
              isPage: (path) => paths.has(path),
              // A hash, not the list: it is part of every page's result key.
              id: createHash('sha256')
                .update(JSON.stringify([vite.base, output, [...paths].sort()]))
                .digest('hex'),
            };
            if (scriptOptions) {
              // Each locale's pages come from its own build (they load its chunks).
              for (const item of htmlAssets) {
                if (item.type !== 'asset') continue;
                const alternates = alternatesOf(item.fileName);
                item.source = withAlternates(asText(item.source), alternates, alternates[0]!.href);
              }
              await buildComponents(this, bundle, session, pages, links);
            }
            const localized = scriptOptions
              ? undefined
              : await localizePages(pages, localizeOptions(session, links));
            if (localized) {
              for (const problem of localized.problems) {
                this.warn(
                  `${problem.file}: ${problem.locale} ${problem.key}: ${problem.reason} (kept in ${glossa.sourceLang})`,
                );
              }
              for (const failure of localized.report.failures) {
                this.warn(
                  `${failure.file}: ${failure.locale} ${failure.key}: ${failure.reason} (kept in ${glossa.sourceLang})`,
                );
              }
              for (const item of htmlAssets) {
                if (item.type !== 'asset') continue;
                const alternates = alternatesOf(item.fileName);
                const defaultHref = alternates[0]!.href;
                item.source = withAlternates(asText(item.source), alternates, defaultHref);
                for (const locale of locales) {
                  const html = localized.pages.get(locale)!.get(item.fileName)!;
                  this.emitFile({
                    type: 'asset',
                    fileName: outputPath(output, locale, item.fileName),
                    source: withAlternates(html, alternates, defaultHref),
                  });
                }
              }
              log(describeReport(localized.report, pages.length, locales, localized.reused));
            }
          } else if (scriptOptions) {
            await buildComponents(this, bundle, session, [], undefined);
          }
          if (options.catalogs) {
            await emitCatalogs(options.catalogs, {
              root: vite.root,
              localize: localizeOptions(session),
              emit: (fileName, source) => this.emitFile({ type: 'asset', fileName, source }),
              log,
            });
          }
          await session.results?.prune();
        } finally {
          await session.close();
        }
      },
    },

    // `server.close()` runs this hook and waits for it, so the cache is written before it returns.
    async closeBundle() {
      await closeDevSession();
    },

    configurePreviewServer(server) {
      server.middlewares.use(previewMiddleware());
    },

    configureServer(server) {
      server.httpServer?.once('close', () => {
        closeDevSession().catch((error: Error) => server.config.logger.error(`glossa: ${error.message}`));
      });
      if (scriptOptions && devLocale) {
        // A person's edit of a component translation: the components that use it are updated in place.
        server.watcher.add(catalogPath(catalogDir(), devLocale));
        server.watcher.on('change', (file) => {
          if (file !== catalogPath(catalogDir(), devLocale!)) return;
          for (const id of devModules) {
            const mod = server.moduleGraph.getModuleById(id);
            if (mod) server.reloadModule(mod).catch((e: Error) => vite.logger.error(`glossa: ${e.message}`));
          }
        });
      }
      server.watcher.on('change', (file) => {
        if (file.endsWith('.html') || (options.catalogs && file.endsWith('.json'))) {
          server.ws.send({ type: 'full-reload', path: '*' });
        }
      });
      if (options.catalogs) {
        // The catalogs and manifest a build would emit, made on request (cache first).
        const catalogs = options.catalogs;
        const prefix = `/${(catalogs.outDir ?? 'locales').replace(/^\/+|\/+$/g, '')}/`;
        let files: Promise<Map<string, string>> | undefined;
        const build = async () => {
          const out = new Map<string, string>();
          await emitCatalogs(catalogs, {
            root: vite.root,
            localize: localizeOptions(openDevSession()),
            emit: (fileName, source) => out.set(`/${fileName}`, source),
            log,
          });
          return out;
        };
        server.middlewares.use((req, res, next) => {
          const path = new URL(req.url ?? '/', 'http://localhost').pathname;
          if (!path.startsWith(prefix)) return next();
          if (path.endsWith('/manifest.json') || !files) files = build();
          files
            .then((built) => {
              const body = built.get(path);
              if (body === undefined) return next();
              res.setHeader('Content-Type', 'application/json; charset=utf-8');
              res.end(body);
            })
            .catch(next);
        });
      }
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        // Runs before Vite's own middlewares, so the URL still carries `base` (e.g. /app/es/).
        const base = vite.base.startsWith('/') ? vite.base : '/';
        if (!url.pathname.startsWith(base)) return next();
        const match = /^\/([^/]+)(\/.*)$/.exec(`/${url.pathname.slice(base.length)}`);
        const locale = match && locales.find((l) => l.toLowerCase() === match[1]!.toLowerCase());
        if (!match || !locale) return next();
        let path = match[2]!;
        if (path.endsWith('/')) path += 'index.html';
        else if (extname(path) === '') path += '.html';
        if (!path.endsWith('.html')) {
          req.url = `${base}${path.slice(1)}${url.search}`; // an asset next to the page: the source file
          return next();
        }
        servePage(server, locale, path, openDevSession())
          .then((html) =>
            // An app's route (`/es/calendar`): the locale's index.html, as Vite's SPA fallback does.
            html === undefined && vite.appType === 'spa' && path !== '/index.html'
              ? servePage(server, locale, '/index.html', openDevSession())
              : html,
          )
          .then((html) => {
            if (html === undefined) return next();
            res.setHeader('Content-Type', 'text/html; charset=utf-8');
            res.end(html);
          })
          .catch(next);
      });
    },
  };
  return plugin;

  /**
   * `vite preview`: `/<locale>/…` is the locale's file when the build has one; else a file of the app
   * (a page-relative asset URL such as `./images/logo.svg` seen from `/es/`); else, for a page
   * request, the locale's `index.html` (the SPA fallback, in the locale).
   */
  function previewMiddleware(): Connect.NextHandleFunction {
    const outDir = resolve(vite.root, vite.build.outDir);
    const base = basePath(vite.base);
    const isFile = (path: string) => {
      const file = join(outDir, ...path.split('/'));
      return file.startsWith(outDir + sep) && existsSync(file) && statSync(file).isFile();
    };
    return (req, _res, next) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const pathname = decodeURIComponent(url.pathname);
      if (!pathname.startsWith(base)) return next();
      const path = pathname.slice(base.length);
      const locale = locales.find((l) => {
        const folder = outputPath(output, l, '');
        return path === folder.replace(/\/$/, '') || path.startsWith(folder);
      });
      if (!locale) return next();
      const folder = outputPath(output, locale, '');
      const rest = path.slice(folder.length);
      const page = rest === '' || rest.endsWith('/') ? `${rest}index.html` : rest;
      if (
        isFile(`${folder}${page}`) ||
        isFile(`${folder}${page}.html`) ||
        isFile(`${folder}${page}/index.html`)
      ) {
        return next();
      }
      if (rest !== '' && isFile(rest)) {
        req.url = `${base}${rest}${url.search}`;
        return next();
      }
      const accept = req.headers.accept ?? '';
      if ((extname(rest) === '' || accept.includes('text/html')) && isFile(`${folder}index.html`)) {
        req.url = `${base}${folder}index.html${url.search}`;
      }
      return next();
    };
  }

  function componentRunOptions(session: Session) {
    return {
      session,
      sourceLang: glossa.sourceLang,
      locales,
      cacheOnly,
      catalogDir: catalogDir(),
      lockPath: glossa.lock,
      requestOptions: requestOptionsOf(glossa),
      doNotTranslate: glossa.doNotTranslate,
      onEvent,
    };
  }

  function warnAll(problems: readonly RunFailure[]) {
    for (const p of problems) {
      const at = p.position ? `:${p.position.line}:${p.position.column}` : '';
      vite.logger.warn(
        `glossa: ${p.file ?? ''}${at}: ${p.locale} ${p.key}: ${p.reason} (kept in ${glossa.sourceLang})`,
      );
    }
  }

  /**
   * The source build's component text: one run over every unit, then each locale's build (or its files
   * from the result cache) added to the output.
   */
  async function buildComponents(
    ctx: Rollup.PluginContext,
    bundle: Rollup.OutputBundle,
    session: Session,
    pages: readonly Page[],
    links: LinkOptions | undefined,
  ) {
    // In file order: modules are transformed in parallel, in no set order.
    const units = [...moduleUnits.keys()].sort().flatMap((id) => moduleUnits.get(id)!);
    const modules = [...moduleUnits.values()].filter((u) => u.length > 0).length;
    await unitCache?.flush();
    const run = await translateComponents(units, componentRunOptions(session));
    warnAll(run.report.failures);
    warnAll(run.problems);
    const keys = new Set(units.map((u) => u.key)).size;
    log(
      `glossa: ${modules} component module(s), ${keys} text(s) × ${locales.join(', ')}: ` +
        `${run.report.unchanged} unchanged, ${run.report.humanEdits} human edit(s), ${run.report.cacheHits} from cache, ` +
        `${run.report.translated} translated, ${run.report.failures.length + run.problems.length} kept in ${glossa.sourceLang}`,
    );
    const material = [
      'components-v12', // bump when the locale files made from the same input change
      buildFingerprint(bundle, units, vite),
      locales,
      targetsFingerprint(run.targets),
      output,
      pages.map((p) => [p.path, p.html]),
      requestOptionsOf(glossa),
      glossa.doNotTranslate,
      { shareChunks: options.shareChunks !== false },
    ];
    let outputs = await session.results?.get(material);
    if (outputs) log(`glossa: ${locales.length} locale build(s) unchanged (result cache)`);
    else {
      let clean = run.report.failures.length === 0 && run.problems.length === 0;
      const built: LocaleOutput[] = [];
      for (const locale of locales) {
        const started = performance.now();
        const { files, chunks } = await buildLocale(
          vite,
          { locale, targets: run.targets.get(locale)! },
          (p) => (p === plugin ? glossaVite(options) : undefined),
        );
        const htmlFiles = [...files].filter(([name]) => name.endsWith('.html'));
        const localized = await localizePages(
          htmlFiles.map(([path, html]) => ({ path, html: asText(html) })),
          { ...localizeOptions(session, links), locales: [locale] },
        );
        warnAll(localized.problems);
        warnAll(localized.report.failures);
        if (localized.problems.length > 0 || localized.report.failures.length > 0) clean = false;
        for (const [path] of htmlFiles) {
          files.delete(path);
          const alternates = alternatesOf(path);
          const html = localized.pages.get(locale)!.get(path)!;
          files.set(outputPath(output, locale, path), withAlternates(html, alternates, alternates[0]!.href));
        }
        built.push({ locale, files, chunks });
        log(`glossa: ${locale} build in ${Math.round(performance.now() - started)} ms`);
      }
      const made: Record<string, string> = {};
      if (options.shareChunks !== false && canShare(built)) {
        // The source build's chunks, with the strings that differ read from each locale's dictionary.
        const sourceChunks = Object.values(bundle).flatMap((item) =>
          item.type === 'chunk' ? [chunkOf(item)] : [],
        );
        await loadParser();
        const shared = shareChunks(sourceChunks, built, {
          parse: parseChunk,
          assetsDir: vite.build.assetsDir,
          assetsUrl: `${basePath(vite.base)}${vite.build.assetsDir ? `${vite.build.assetsDir}/` : ''}`,
        });
        log(
          `glossa: ${shared.stats.shared} chunk(s) shared (${shared.stats.lookups} value(s) from each locale's ` +
            `dictionary), ${shared.stats.perLocale} per locale, ${shared.stats.copies} locale copies`,
        );
        made[SHARED] = packFiles(shared.rewrites);
        for (const out of built) made[out.locale] = packLocale(shared.files.get(out.locale)!);
      } else {
        for (const out of built) made[out.locale] = packLocale(out.files);
      }
      outputs = made;
      if (clean) await session.results?.set(material, outputs, new Map());
    }
    if (outputs[SHARED]) {
      for (const [fileName, code] of unpackFiles(outputs[SHARED])) {
        const chunk = bundle[fileName];
        if (chunk?.type === 'chunk') chunk.code = asText(code);
      }
    }
    for (const locale of locales) {
      const files: BuiltFiles = unpackFiles(outputs[locale]!);
      for (const [fileName, source] of files) {
        // A chunk without text has the same content, hence the same name, in every locale.
        if (fileName in bundle) continue;
        ctx.emitFile({ type: 'asset', fileName, source });
      }
    }

    /** A locale's own files: a file the source build has too (same content, same hashed name) is not kept twice. */
    function packLocale(files: BuiltFiles) {
      for (const name of files.keys()) if (name in bundle) files.delete(name);
      return packFiles(files);
    }
  }

  async function servePage(server: ViteDevServer, locale: string, path: string, session: Session) {
    const file = join(vite.root, ...path.split('/'));
    const raw = await readFile(file, 'utf8').catch(() => undefined);
    if (raw === undefined) return undefined;
    const html = await server.transformIndexHtml(path, raw);
    const pagePath = posix.normalize(path).replace(/^\//, '');
    const links: LinkOptions = {
      base: vite.base,
      output: '{locale}/{path}', // where this server serves localized pages
      isPage: (page) =>
        page.endsWith('.html') &&
        !page.split('/').includes('..') &&
        existsSync(join(vite.root, ...page.split('/'))),
      id: 'dev',
    };
    const localized = await localizePages([{ path: pagePath, html }], {
      ...localizeOptions(session, links),
      locales: [locale],
    });
    const alternates = alternatesOf(pagePath);
    return withAlternates(localized.pages.get(locale)!.get(pagePath)!, alternates, alternates[0]!.href);
  }
}

/**
 * `@vitejs/plugin-vue` hashes a production component's scoped-CSS id (`data-v-…`) from its path and
 * source; a locale's source differs by its text, so each locale would get other ids and a copy of the
 * CSS. Ids from the path alone (its `componentIdGenerator: 'filepath'`, unless the app chose one) are
 * the same in every locale.
 */
function stableVueIds(config: ResolvedConfig) {
  const vue = config.plugins.find((p) => p.name === 'vite:vue') as
    | { api?: { options?: { features?: Record<string, unknown> } } }
    | undefined;
  const api = vue?.api;
  if (!api?.options || api.options.features?.componentIdGenerator !== undefined) return;
  api.options = { ...api.options, features: { ...api.options.features, componentIdGenerator: 'filepath' } };
}

/** A JSX, Vue or Svelte module with its links to the app's routes in the locale's folder (`localeLinkEdits`, `sfcLinkEdits`). */
async function withLocaleLinks(
  code: string,
  file: string,
  links: { prefix: string; folder: string },
  folders: readonly string[],
): Promise<string> {
  if (/\.(vue|svelte)$/.test(file)) {
    const edits = await sfcLinkEdits(file, code, links.prefix, links.folder, folders);
    return edits.length > 0 ? applyEdits(code, edits) : code;
  }
  const lang = /\.(jsx|tsx)$/.exec(file)?.[1] as 'jsx' | 'tsx' | undefined;
  if (!lang) return code;
  const edits = localeLinkEdits(code, lang, links.prefix, links.folder, folders);
  return edits.length > 0 ? applyEdits(code, edits) : code;
}

/**
 * Modules that may hold units (`isComponentFile` decides, this only spares Rolldown the calls): a
 * component file, or a part of one that a router's code splitting made a module of its own (`SPLIT_QUERY`).
 */
const COMPONENT_ID = /\.(jsx|tsx|vue|svelte|[mc]?[jt]s)(\?tsr-(split|shared)=[^?]*)?$/;

/**
 * The queries of modules that hold part of a source file's own code: TanStack Router's code splitting
 * (`routes/index.tsx?tsr-split=component`: the route's component, compiled out of the file;
 * `?tsr-shared=1`: what the route and its parts share). Every other query (`?raw`, `?url`, `?worker`,
 * Vue's `?vue&type=…`) is another view of a file this plugin handles whole, or not code: left alone.
 */
const SPLIT_QUERY = /^tsr-(split|shared)=[^?]*$/;

/** The file a module is made of, when its units are this plugin's to take; undefined otherwise. */
export function componentPath(id: string): string | undefined {
  const at = id.indexOf('?');
  if (at === -1) return id;
  return SPLIT_QUERY.test(id.slice(at + 1)) ? id.slice(0, at) : undefined;
}

/** The `msg` tag's module, next to this one (`src/runtime.ts` from source, `dist/runtime.js` built). */
const RUNTIME = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './runtime.ts' : './runtime.js', import.meta.url),
);

/** The result cache's entry of the source chunks rewritten to read each locale's dictionary. */
const SHARED = '\0shared';

const asText = (source: string | Uint8Array) =>
  typeof source === 'string' ? source : new TextDecoder().decode(source);
