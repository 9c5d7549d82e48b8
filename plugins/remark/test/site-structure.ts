/**
 * Test helper: the structure a docs page renders to in its site's own Markdown pipeline, text aside.
 * VitePress: markdown-it (html, linkify) with markdown-it-container for its container types.
 * Docusaurus and Starlight: @mdx-js/mdx's parser with remark-gfm, remark-frontmatter, remark-directive.
 * Element and component names, attributes, containers and code are compared; text is not.
 */
import { createProcessor } from '@mdx-js/mdx';
import MarkdownIt, { type PluginWithParams, type Token } from 'markdown-it';
import container from 'markdown-it-container';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';

/** VitePress's own container types (`src/node/markdown/plugins/containers.ts`). */
const VITEPRESS_CONTAINERS = ['tip', 'info', 'warning', 'danger', 'details', 'raw', 'code-group', 'v-pre'];

const vitepress = new MarkdownIt({ html: true, linkify: true });
for (const name of VITEPRESS_CONTAINERS) vitepress.use(container as unknown as PluginWithParams, name);

/** Attributes whose value is translated text. */
const TRANSLATED_ATTRIBUTES = new Set(['title', 'alt', 'label', 'description', 'caption', 'aria-label']);

/** Raw HTML with its text between tags masked (the text is translated). */
const htmlTags = (html: string) =>
  html
    .replace(/>[^<]*</g, '><')
    .replace(/(\s(?:title|alt|label|aria-label|placeholder)=)("[^"]*"|'[^']*')/g, '$1…')
    .trim();

function tokenSignature(token: Token, out: string[]): void {
  switch (token.type) {
    case 'text':
    case 'softbreak':
      return;
    case 'inline':
      for (const child of token.children ?? []) tokenSignature(child, out);
      return;
  }
  const attrs = (token.attrs ?? [])
    .map(([name, value]) => `${name}=${TRANSLATED_ATTRIBUTES.has(name) ? '…' : value}`)
    .join(' ');
  let detail = '';
  if (token.type === 'fence' || token.type === 'code_block') detail = `${token.info}|${token.content}`;
  else if (token.type === 'code_inline') detail = token.content;
  else if (token.type === 'html_block' || token.type === 'html_inline') detail = htmlTags(token.content);
  else if (token.type.startsWith('container_') && token.nesting === 1)
    detail = token.info.trim().split(/\s/)[0] ?? '';
  out.push(
    `${token.type}${token.tag ? `<${token.tag}>` : ''}${attrs ? ` ${attrs}` : ''}${detail ? ` ${detail}` : ''}`,
  );
}

/** The token sequence VitePress's markdown-it renders from, without text. */
export function vitepressStructure(text: string): string[] {
  const out: string[] = [];
  // Front matter is taken off by VitePress (gray-matter) before markdown-it sees the page.
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, (m) => '\n'.repeat(m.split('\n').length - 1));
  for (const token of vitepress.parse(body, {})) tokenSignature(token, out);
  return out;
}

const VERBATIM = new Set([
  'code',
  'inlineCode',
  'mdxjsEsm',
  'mdxFlowExpression',
  'mdxTextExpression',
  'math',
  'inlineMath',
]);

/** The MDX syntax tree without positions and text; translated attribute values masked. */
function maskMdx(node: unknown, key = '', verbatim = false): unknown {
  if (Array.isArray(node))
    return node
      .filter((item) => verbatim || (item as { type?: string })?.type !== 'text')
      .map((item) => maskMdx(item, '', verbatim));
  if (typeof node !== 'object' || node === null)
    return !verbatim && ['value', 'alt', 'title', 'label'].includes(key) && typeof node === 'string'
      ? '…'
      : node;
  const type = String((node as { type?: unknown }).type);
  if (type === 'html') return { type, value: htmlTags(String((node as { value?: unknown }).value)) };
  if (type === 'mdxJsxAttribute') {
    const { name, value } = node as { name: string; value: unknown };
    return {
      type,
      name,
      value: TRANSLATED_ATTRIBUTES.has(name) && typeof value === 'string' ? '…' : maskMdx(value, '', true),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) {
    if (name === 'position' || (name === 'data' && type !== 'paragraph')) continue;
    if (name === 'data') {
      // A directive's label paragraph is marked in `data`: keep that mark only.
      out.directiveLabel = Boolean((value as { directiveLabel?: boolean } | undefined)?.directiveLabel);
      continue;
    }
    out[name] = maskMdx(value, name, verbatim || VERBATIM.has(type));
  }
  return out;
}

const processors = {
  mdx: createProcessor({ format: 'mdx', remarkPlugins: [remarkGfm, remarkFrontmatter, remarkDirective] }),
  md: createProcessor({ format: 'md', remarkPlugins: [remarkGfm, remarkFrontmatter, remarkDirective] }),
};

/** The tree @mdx-js/mdx parses a page into (as Docusaurus and Starlight do), without text. */
export function mdxStructure(text: string, format: 'mdx' | 'md'): unknown {
  // Docusaurus escapes heading ids (`## Title {#id}`) before MDX reads them (its `mdx1Compat.headingIds`).
  const escaped = text.replace(/^([ \t]{0,3}#{1,6}[ \t].*?)\{#([^{}\s]+)\}([ \t]*)$/gm, '$1\\{#$2\\}$3');
  return maskMdx(processors[format].parse(escaped));
}
