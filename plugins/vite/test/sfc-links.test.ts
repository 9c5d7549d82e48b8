/** Vue and Svelte `<a href="/…">` to the app's pages lead into the locale's folder (as JSX links do). */
import { describe, expect, it } from 'vitest';
import { sfcLinkEdits } from '../src/components/sfc.js';
import { applyEdits } from '../src/components/units.js';

const rewrite = async (file: string, code: string, prefix = '/') =>
  applyEdits(code, await sfcLinkEdits(file, code, prefix, 'es/', ['es/', 'fr/']));

describe('sfcLinkEdits', () => {
  it('Vue: static hrefs to pages move into the locale folder; files, bound, external and localized ones stay', async () => {
    const code = `<script setup>const to = '/x'</script>
<template>
  <nav><a href="/about">About</a> <a href='/'>Home</a> <a href="/docs/intro.html#top">Docs</a></nav>
  <div v-if="ok"><a href="/contact?x=1">Contact</a></div>
  <a href="/logo.svg">Logo</a> <a :href="to">Bound</a> <a href="https://vuejs.org/">Vue</a>
  <a href="//cdn.example/x">CDN</a> <a href="#top">Top</a> <a href="/es/about">Already</a>
  <RouterLink to="/about">Router</RouterLink> <link-box href="/about" />
</template>
`;
    const out = await rewrite('App.vue', code);
    expect(out).toContain('<a href="/es/about">About</a>');
    expect(out).toContain("<a href='/es/'>Home</a>");
    expect(out).toContain('<a href="/es/docs/intro.html#top">Docs</a>');
    expect(out).toContain('<a href="/es/contact?x=1">Contact</a>');
    for (const kept of ['"/logo.svg"', ':href="to"', '"https://vuejs.org/"', '"//cdn.example/x"', '"#top"']) {
      expect(out).toContain(kept);
    }
    expect(out).toContain('<a href="/es/about">Already</a>');
    expect(out).toContain('<RouterLink to="/about">');
    expect(out).toContain('<link-box href="/about" />');
    expect(out).toContain("const to = '/x'");
  });

  it('Svelte: the same, inside blocks, under a base', async () => {
    const code = `<script>let open = true; let href = '/app/x';</script>
<nav><a href="/app/about">About</a> <a href={href}>Bound</a></nav>
{#if open}<p><a href="/app/contact">Contact</a></p>{:else}<a href="/app/">Home</a>{/if}
{#each [1] as i}<a href="/app/item">Item {i}</a>{/each}
<a href="/app/favicon.png">Icon</a> <a href="/other">Outside the base</a>
`;
    const out = await rewrite('App.svelte', code, '/app/');
    expect(out).toContain('<a href="/app/es/about">About</a>');
    expect(out).toContain('<a href={href}>Bound</a>');
    expect(out).toContain('<a href="/app/es/contact">Contact</a>');
    expect(out).toContain('<a href="/app/es/">Home</a>');
    expect(out).toContain('<a href="/app/es/item">Item {i}</a>');
    expect(out).toContain('<a href="/app/favicon.png">');
    expect(out).toContain('<a href="/other">');
    expect(out).toContain("let href = '/app/x'");
  });
});
