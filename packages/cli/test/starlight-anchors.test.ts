/** A Starlight site's `#fragment` links sent to the translated headings (Astro slugs each heading's text). */
import { expect, it } from 'vitest';
import { alignHeadings, rewriteStarlightFragments, starlightRoute } from '../src/starlight-anchors.js';

const markdown = { dialect: 'starlight' } as const;
/** A page with one heading, translated. */
const guide = {
  id: 'docs/guides/example.md',
  path: 'guides/example.md',
  source: '## Further reading\n',
  translated: '## Lectura adicional\n',
};

it('routes a page as Astro serves it', () => {
  expect(starlightRoute('index.mdx')).toBe('');
  expect(starlightRoute('guides/Example Page.md')).toBe('guides/example-page/');
  expect(starlightRoute('reference/index.md')).toBe('reference/');
});

it('sends relative links to the translated heading at the same place; absolute and external links stay', () => {
  const guide = {
    id: 'docs/guides/example.md',
    path: 'guides/example.md',
    source: '## Further reading\n\nText.\n\n## Further reading\n',
    translated: '## Lectura adicional\n\nTexto.\n\n## Lectura adicional\n',
  };
  const start = {
    id: 'docs/getting-started.mdx',
    path: 'getting-started.mdx',
    source: '## Next steps\n',
    translated: [
      '## Próximos pasos',
      '',
      'Ver [la guía](../guides/example/#further-reading-1), [aquí](#next-steps), [sin página](../nada/#x),',
      '[inglés](/guides/example/#further-reading), [fuera](https://example.com/a/#next-steps) y [otro](#otro).',
      '',
      '[r]: ../guides/example#further-reading',
      '',
    ].join('\n'),
  };
  const out = rewriteStarlightFragments([guide, start], markdown);
  expect([...out.keys()]).toEqual(['docs/getting-started.mdx']);
  expect(out.get('docs/getting-started.mdx')).toBe(
    [
      '## Próximos pasos',
      '',
      'Ver [la guía](../guides/example/#lectura-adicional-1), [aquí](#próximos-pasos), [sin página](../nada/#x),',
      '[inglés](/guides/example/#further-reading), [fuera](https://example.com/a/#next-steps) y [otro](#otro).',
      '',
      '[r]: ../guides/example#lectura-adicional',
      '',
    ].join('\n'),
  );
});

it("sends root-relative links and MDX components' hrefs to the locale's page", () => {
  const start = {
    id: 'docs/index.mdx',
    path: 'index.mdx',
    source: '# Home\n',
    translated: [
      '<LinkCard title="Guía" href="/guides/example/#further-reading" />',
      '<LinkCard title="Guía" href="../guides/example/#further-reading" />',
      '',
      '[Guía](/guides/example/), [otra](/guides/example#nada), [fuera](/blog/) y [web](//example.com/guides/example/).',
      '',
    ].join('\n'),
  };
  expect(rewriteStarlightFragments([guide, start], markdown, 'en-xa').get('docs/index.mdx')).toBe(
    [
      '<LinkCard title="Guía" href="/en-xa/guides/example/#lectura-adicional" />',
      '<LinkCard title="Guía" href="../guides/example/#lectura-adicional" />',
      '',
      '[Guía](/en-xa/guides/example/), [otra](/en-xa/guides/example#nada), [fuera](/blog/) y [web](//example.com/guides/example/).',
      '',
    ].join('\n'),
  );
});

it('leaves the links to a page whose headings no longer line up', () => {
  const page = {
    id: 'a.md',
    path: 'a.md',
    source: '## One\n\n## Two\n\n[x](#two)\n',
    translated: '## Uno\n\n[x](#two)\n',
  };
  expect(rewriteStarlightFragments([page], markdown).size).toBe(0);
});

it('with a heading removed from the translation, follows the headings before and after it, not an ambiguous one', () => {
  const h = (...depths: number[]) => depths.map((depth) => ({ depth }));
  // B (the one h3) removed: A and C are paired, B is not.
  expect(alignHeadings(h(2, 3, 2), h(2, 2))).toEqual([
    [0, 0],
    [2, 1],
  ]);
  // Depths alone cannot tell which of three h2 went: none is paired.
  expect(alignHeadings(h(2, 2, 2), h(2, 2))).toEqual([]);
  // An h3 added after the first: either h3 could be the English one, so only the first and last are paired.
  expect(alignHeadings(h(2, 3, 2), h(2, 3, 3, 2))).toEqual([
    [0, 0],
    [2, 3],
  ]);
  expect(alignHeadings(h(2, 2), h(2, 2))).toEqual([
    [0, 0],
    [1, 1],
  ]);
  const page = {
    id: 'a.md',
    path: 'a.md',
    source: '## One\n\n### Two\n\n## Three\n\n[x](#one) [y](#two) [z](#three)\n',
    translated: '## Uno\n\n## Tres\n\n[x](#one) [y](#two) [z](#three)\n',
  };
  expect(rewriteStarlightFragments([page], markdown).get('a.md')).toBe(
    '## Uno\n\n## Tres\n\n[x](#uno) [y](#two) [z](#tres)\n',
  );
});

it("in a site with a base, sends a root-relative link that carries it to the locale's page under the base", () => {
  const home = {
    id: 'docs/index.mdx',
    path: 'index.mdx',
    source: '# Home\n',
    translated: [
      '<LinkCard title="Guía" href="/docs/guides/example/#further-reading" />',
      '',
      '[Guía](/docs/guides/example/), [inicio](/docs/), [inicio](/docs), [sin base](/guides/example/) y [otra](/docsy/guides/example/).',
      '',
    ].join('\n'),
  };
  expect(rewriteStarlightFragments([guide, home], markdown, 'es', '/docs/').get('docs/index.mdx')).toBe(
    [
      '<LinkCard title="Guía" href="/docs/es/guides/example/#lectura-adicional" />',
      '',
      '[Guía](/docs/es/guides/example/), [inicio](/docs/es/), [inicio](/docs/es/), [sin base](/guides/example/) y [otra](/docsy/guides/example/).',
      '',
    ].join('\n'),
  );
});

it("a page's slug front matter is its route; in the locale it is under the locale's (slug: es/…), links follow it", () => {
  const renamed = {
    id: 'docs/reference/example.md',
    path: 'reference/example.md',
    source: "---\ntitle: Example\nslug: 'guides/renamed'\n---\n\n## Further reading\n",
    translated: "---\ntitle: Ejemplo\nslug: 'guides/renamed'\n---\n\n## Lectura adicional\n",
  };
  const home = {
    id: 'docs/index.mdx',
    path: 'index.mdx',
    source: '---\ntitle: Home\n---\n\n# Home\n',
    translated: [
      '---',
      'title: Inicio',
      '---',
      '',
      '[a](/guides/renamed/#further-reading), [b](guides/renamed/#further-reading) y [c](/reference/example/).',
      '',
      '---',
      '',
      'slug: no es front matter',
      '',
    ].join('\n'),
  };
  expect(starlightRoute('reference/example.md', renamed.source)).toBe('guides/renamed/');
  const out = rewriteStarlightFragments([renamed, home], markdown, 'es');
  expect(out.get('docs/reference/example.md')).toBe(
    "---\ntitle: Ejemplo\nslug: 'es/guides/renamed'\n---\n\n## Lectura adicional\n",
  );
  expect(out.get('docs/index.mdx')).toBe(
    [
      '---',
      'title: Inicio',
      '---',
      '',
      '[a](/es/guides/renamed/#lectura-adicional), [b](guides/renamed/#lectura-adicional) y [c](/reference/example/).',
      '',
      '---',
      '',
      'slug: no es front matter',
      '',
    ].join('\n'),
  );
});
