/** Heading ids as Astro gives them, and link destinations rewritten in place (Starlight's translated anchors). */
import { describe, expect, it } from 'vitest';
import { headingAnchors, headingOutline, rewriteLinks } from '../src/index.js';

describe('headingAnchors', () => {
  it('slugs each heading as Astro does: text and inline code, repeats numbered, one trailing - dropped', () => {
    const page = [
      '---',
      'title: Page',
      '---',
      '# Getting *Started*',
      '## Use `astro build` here',
      '## Getting Started',
      '### Why?',
      '## Título con acentos',
      '## Create a site -',
      '',
      '```md',
      '# not a heading',
      '```',
    ].join('\n');
    expect(headingAnchors(page, { dialect: 'starlight' })).toEqual([
      'getting-started',
      'use-astro-build-here',
      'getting-started-1',
      'why',
      'título-con-acentos',
      'create-a-site-',
    ]);
  });

  it('reads MDX pages (components and asides around the headings)', () => {
    const page =
      'import { Tabs } from \'@astrojs/starlight/components\';\n\n:::tip[Hi]\nText\n:::\n\n## Install <Badge text="new" />\n';
    expect(headingAnchors(page, { dialect: 'starlight', file: 'a.mdx' })).toEqual(['install']);
  });
});

it('headingOutline gives each heading its id and depth', () => {
  expect(headingOutline('# Title\n\n## A\n\nText\n\n### A\n', { dialect: 'starlight' })).toEqual([
    { id: 'title', depth: 1 },
    { id: 'a', depth: 2 },
    { id: 'a-1', depth: 3 },
  ]);
});

describe('rewriteLinks', () => {
  const rewrite = (url: string) => (url.includes('#') ? url.replace(/#.*/, '#nuevo') : undefined);

  it('changes inline links and definitions, nothing else', () => {
    const page = [
      'See [the guide](../guide/#old "Title"), [here](#old), [a <b>](<../a b/#old>) and [no fragment](../x/).',
      '',
      '[![alt](./img.png)](./y/#old) and [ref][r] and `[code](#old)`.',
      '',
      '[r]: ../guide/#old "Ref"',
      '',
      '```md',
      '[fenced](#old)',
      '```',
    ].join('\n');
    expect(rewriteLinks(page, { dialect: 'starlight' }, rewrite)).toBe(
      [
        'See [the guide](../guide/#nuevo "Title"), [here](#nuevo), [a <b>](<../a b/#nuevo>) and [no fragment](../x/).',
        '',
        '[![alt](./img.png)](./y/#nuevo) and [ref][r] and `[code](#old)`.',
        '',
        '[r]: ../guide/#nuevo "Ref"',
        '',
        '```md',
        '[fenced](#old)',
        '```',
      ].join('\n'),
    );
  });

  it('keeps a destination with parentheses whole, and the text as it was when nothing changes', () => {
    const page = 'A [link](../f(x)/#old) here.\n';
    expect(rewriteLinks(page, { dialect: 'starlight' }, rewrite)).toBe('A [link](../f(x)/#nuevo) here.\n');
    expect(rewriteLinks(page, { dialect: 'starlight' }, () => undefined)).toBe(page);
  });

  it("changes an MDX component's quoted href, not an expression or another attribute", () => {
    const page = [
      '<LinkCard title="#old" href="../guide/#old" />',
      '',
      "<Card title='x'>See <a href='#old'>here</a> and <Link href={'#old'} /></Card>",
      '',
    ].join('\n');
    expect(rewriteLinks(page, { dialect: 'starlight', file: 'a.mdx' }, rewrite)).toBe(
      [
        '<LinkCard title="#old" href="../guide/#nuevo" />',
        '',
        "<Card title='x'>See <a href='#nuevo'>here</a> and <Link href={'#old'} /></Card>",
        '',
      ].join('\n'),
    );
  });
});
