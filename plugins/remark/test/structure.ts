/** Test helper: the structure a Markdown text renders to, with all translatable text masked. */
import rehypeRaw from 'rehype-raw';
import rehypeStringify from 'rehype-stringify';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

const MASKED_KEYS = new Set(['value', 'alt', 'title', 'label']);
const VERBATIM = new Set(['raw', 'html', 'code', 'inlineCode', 'math', 'inlineMath', 'comment']);

/**
 * The tree without positions, text nodes dropped (translation may add or split them) and translatable
 * values masked; code, math and raw HTML keep their exact text.
 */
function mask(node: unknown, key = '', verbatim = false): unknown {
  if (Array.isArray(node))
    return node
      .filter((item) => verbatim || (item as { type?: string })?.type !== 'text')
      .map((item) => mask(item, '', verbatim));
  if (typeof node !== 'object' || node === null)
    return !verbatim && MASKED_KEYS.has(key) && typeof node === 'string' ? '…' : node;
  const type = String((node as { type?: unknown }).type);
  const tagName = (node as { tagName?: unknown }).tagName;
  const inner = verbatim || VERBATIM.has(type) || tagName === 'code' || tagName === 'pre';
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) {
    if (name === 'position' || name === 'data') continue;
    out[name] = mask(value, name, inner);
  }
  return out;
}

/** Markdown: the HTML tree it renders to (GFM, math). MDX: the syntax tree (it renders through JSX). */
export function renderedStructure(text: string, mdx: boolean): unknown {
  if (mdx) {
    // Heading ids escaped first, as Docusaurus does before MDX reads a page (`mdx1Compat.headingIds`).
    const escaped = text.replace(/^([ \t]{0,3}#{1,6}[ \t].*?)\{#([^{}\s]+)\}([ \t]*)$/gm, '$1\\{#$2\\}$3');
    return mask(unified().use(remarkParse).use(remarkMdx).use(remarkMath).use(remarkGfm).parse(escaped));
  }
  const processor = unified()
    .use(remarkParse)
    .use(remarkFrontmatter, ['yaml', 'toml'])
    .use(remarkGfm)
    .use(remarkMath)
    .use(remarkRehype, { allowDangerousHtml: true })
    // Raw HTML becomes elements, so its translated text is masked like the Markdown's.
    .use(rehypeRaw)
    .use(rehypeStringify);
  return mask(processor.runSync(processor.parse(text)));
}
