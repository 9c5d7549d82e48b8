/** The unified parser for a set of resolved options (built once per combination). */
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import { type Processor, unified } from 'unified';
import type { ResolvedMarkdownOptions } from './options.js';

const parsers = new Map<string, Processor>();

export function markdownParser(
  options: Pick<ResolvedMarkdownOptions, 'gfm' | 'math' | 'mdx'> & {
    readonly features: Pick<ResolvedMarkdownOptions['features'], 'directives'>;
  },
): Processor {
  const directives = options.features.directives;
  const id = `${options.gfm}/${options.math}/${options.mdx}/${directives}`;
  let parser = parsers.get(id);
  if (!parser) {
    let processor = unified()
      .use(remarkParse)
      .use(remarkFrontmatter, ['yaml', 'toml']) as unknown as Processor;
    if (options.gfm) processor = processor.use(remarkGfm) as unknown as Processor;
    if (options.math) processor = processor.use(remarkMath) as unknown as Processor;
    if (options.mdx) processor = processor.use(remarkMdx) as unknown as Processor;
    if (directives) processor = processor.use(remarkDirective) as unknown as Processor;
    parser = processor.freeze() as unknown as Processor;
    parsers.set(id, parser);
  }
  return parser;
}
