import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, openConfiguredCache, resolveConfig } from '../src/index.js';

const project = () => mkdtemp(join(tmpdir(), 'glossa-config-'));

describe('loadConfig', () => {
  it('reads glossa.config.json from a parent folder and resolves paths against it', async () => {
    const root = await project();
    await writeFile(
      join(root, 'glossa.config.json'),
      JSON.stringify({
        sourceLang: 'en',
        targetLocales: ['ES', 'en-XA'],
        files: ['docs/**/*.md', { include: 'locales/en/*.json', output: 'locales/{locale}/{path}' }],
        glossaries: ['terms.csv'],
      }),
    );
    await mkdir(join(root, 'docs', 'guide'), { recursive: true });
    const config = await loadConfig({ cwd: join(root, 'docs', 'guide'), env: {} });
    expect(config.root).toBe(root);
    expect(config.configFile).toBe(join(root, 'glossa.config.json'));
    expect(config.targetLocales).toEqual(['es', 'en-XA']);
    expect(config.files).toEqual([
      { include: ['docs/**/*.md'], exclude: [], output: join(root, 'i18n', '{locale}', '{path}') },
      { include: ['locales/en/*.json'], exclude: [], output: join(root, 'locales/{locale}/{path}') },
    ]);
    expect(config.glossaries).toEqual([{ file: join(root, 'terms.csv'), targetLocales: ['es', 'en-XA'] }]);
    expect(config.cache).toEqual({ store: 'file', path: join(root, '.glossa', 'cache.jsonl') });
    expect(config.lock).toBe(join(root, 'glossa.lock'));
    expect(config.service.url).toBeUndefined();
  });

  it('imports glossa.config.ts (default export, type-only imports erased)', async () => {
    const root = await project();
    await writeFile(
      join(root, 'glossa.config.ts'),
      "import type { GlossaConfig } from '@glossa/core';\nconst locales: string[] = ['es'];\nexport default { targetLocales: locales, out: 'build/i18n' } satisfies GlossaConfig;\n",
    );
    const config = await loadConfig({ cwd: root, env: {} });
    expect(config.targetLocales).toEqual(['es']);
    expect(config.out).toBe(join(root, 'build', 'i18n'));
  });

  it('lets the environment name the service and key over the file', async () => {
    const root = await project();
    await writeFile(
      join(root, 'glossa.config.json'),
      '{"service": {"url": "http://a.test", "apiKey": "k1"}}',
    );
    const config = await loadConfig({
      cwd: root,
      env: { GLOSSA_SERVER_URL: 'http://b.test', GLOSSA_API_KEY: 'k2', GLOSSA_DATA_DIR: '/tmp/d' },
    });
    expect(config.service).toEqual({ url: 'http://b.test', apiKey: 'k2', dataDir: '/tmp/d', concurrency: 4 });
  });

  it('works without a file: defaults rooted at cwd, overrides applied', async () => {
    const root = await project();
    const config = await loadConfig({ cwd: root, env: {}, overrides: { targetLocales: ['es'], out: 'o' } });
    expect(config.configFile).toBeUndefined();
    expect(config.sourceLang).toBe('en');
    expect(config.out).toBe(join(root, 'o'));
  });

  it('names the file and the field of a wrong value', async () => {
    const root = await project();
    const file = join(root, 'glossa.config.json');
    await writeFile(file, '{"targetLocales": ["es", 42]}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(
      new ConfigError('`targetLocales[1]` must be a non-empty string, got number 42', file),
    );
    await writeFile(file, '{"targetLocale": ["es"]}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(/unknown field `config.targetLocale`/);
    await writeFile(file, '{"targetLocales": ["xx-nope"]}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(
      /`targetLocales\[0\]` must be a language code/,
    );
    await writeFile(file, '{"files": [{"include": "a.md", "output": "out/a.md"}]}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(/containing \{locale\}/);
    await writeFile(file, '{"cache": {"store": "disk"}}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(
      /`cache.store` must be "file", "memory" or "redis"/,
    );
    await writeFile(file, '{"markdown": {"dialect": "hugo"}}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(
      /`markdown.dialect` must be one of auto, commonmark, gfm, vitepress, docusaurus, starlight, got .*hugo/,
    );
    await writeFile(file, '{"markdown": {"dialect": "vitepress", "frontmatter": ["title", "hero.tagline"]}}');
    expect((await loadConfig({ cwd: root, env: {} })).markdown).toEqual({
      dialect: 'vitepress',
      frontmatter: ['title', 'hero.tagline'],
    });
    await writeFile(file, '{"doNotTranslate": ["TailAdmin", ""]}');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(
      /`doNotTranslate\[1\]` must be a non-empty string/,
    );
    await writeFile(file, '{"doNotTranslate": ["TailAdmin", "K"]}');
    expect((await loadConfig({ cwd: root, env: {} })).doNotTranslate).toEqual(['TailAdmin', 'K']);
    await writeFile(file, '{ nope');
    await expect(loadConfig({ cwd: root, env: {} })).rejects.toThrow(/glossa.config.json: not valid JSON/);
    await expect(loadConfig({ cwd: root, configFile: 'missing.json', env: {} })).rejects.toThrow(/not found/);
  });

  it('opens the configured file cache and reads back what it wrote', async () => {
    const root = await project();
    const config = resolveConfig({ cache: { path: 'c/cache.jsonl' } }, { root, env: {} });
    const cache = await openConfiguredCache(config);
    await cache.setMany(new Map([['k', 'v']]));
    await cache.close();
    const again = await openConfiguredCache(config);
    expect((await again.getMany(['k'])).found.get('k')).toBe('v');
    await again.close();
  });
});
