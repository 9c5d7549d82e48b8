/**
 * Vue single-file components (`@vue/compiler-sfc`, through `vue/compiler-sfc`) and Svelte components
 * (`svelte/compiler`): the template's markup, and tagged templates and marked strings in `<script>`.
 * Both compilers are the app's own (peer dependencies), loaded on the first component of their kind.
 */
import { extractMarkup, type MarkupAttribute, type MarkupElement, type MarkupNode } from './markup.js';
import {
  ComponentSyntaxError,
  extractScript,
  leafUnits,
  type ScriptOptions,
  textLeafUnits,
  textLeaves,
} from './script.js';
import { decodeEntities, type Unit } from './units.js';

// biome-ignore lint/suspicious/noExplicitAny: the compilers' ASTs, walked generically
type Node = any;

type VueCompiler = typeof import('vue/compiler-sfc');
type SvelteCompiler = typeof import('svelte/compiler');
let vue: Promise<VueCompiler> | undefined;
let svelte: Promise<SvelteCompiler> | undefined;

const load = <T>(name: string, framework: string, importer: () => Promise<T>) =>
  importer().catch((error: Error) => {
    throw new TypeError(
      `glossaVite: extracting from ${framework} components needs \`${name}\` (install ${framework} in the app): ${error.message}`,
    );
  });

const scriptLang = (lang: string | undefined): 'ts' | 'js' | 'tsx' | 'jsx' =>
  lang === 'ts' || lang === 'tsx' || lang === 'jsx' ? lang : 'js';

// Vue's template AST node types (compiler-core's NodeTypes).
const ELEMENT = 1;
const TEXT = 2;
const INTERPOLATION = 5;
const ATTRIBUTE = 6;

export async function extractVue(file: string, code: string, options: ScriptOptions, units: Unit[]) {
  vue ??= load('vue/compiler-sfc', 'Vue', () => import('vue/compiler-sfc'));
  const { parse } = await vue;
  const { descriptor, errors } = parse(code, { filename: file, sourceMap: false });
  if (errors.length > 0) {
    const e = errors[0] as Error & { loc?: { start: { line: number; column: number } } };
    throw new ComponentSyntaxError(file, e.message, e.loc?.start);
  }
  for (const block of [descriptor.script, descriptor.scriptSetup]) {
    if (!block) continue;
    extractScript(file, block.content, scriptLang(block.lang), options, units, block.loc.start.offset);
  }
  const ast = descriptor.template?.ast;
  if (!ast || (descriptor.template?.lang && descriptor.template.lang !== 'html')) return;
  const markupOf = (node: Node): MarkupNode => {
    const start = node.loc.start.offset as number;
    const end = node.loc.end.offset as number;
    if (node.type === TEXT) {
      return { type: 'text', start, end, text: collapse(decodeEntities(node.loc.source)) };
    }
    if (node.type === INTERPOLATION) {
      // `{{ favorited ? 'Unfavorite' : 'Favorite' }}`: each string a text of its own.
      const content = node.content;
      const leaves =
        typeof content?.content === 'string' ? textLeafUnits(content.content, content.loc.start.offset) : [];
      if (leaves.length === 0) return { type: 'expression', start, end, markup: false };
      return { type: 'expression', start, end, markup: true, visit: () => units.push(...leaves) };
    }
    if (node.type !== ELEMENT) return { type: 'block', start, end };
    const attributes: MarkupAttribute[] = [];
    let ignore = false;
    for (const p of node.props as Node[]) {
      if (p.type !== ATTRIBUTE) continue;
      if (p.name === 'data-glossa-ignore' || (p.name === 'translate' && p.value?.content === 'no'))
        ignore = true;
      if (!p.value) continue;
      const quoted = /^["']/.test(p.value.loc.source);
      attributes.push({
        name: p.name,
        start: p.value.loc.start.offset + (quoted ? 1 : 0),
        end: p.value.loc.end.offset - (quoted ? 1 : 0),
        value: p.value.content,
        escape: 'attribute',
      });
    }
    return elementOf(start, end, node.tag, attributes, ignore, node.children.map(markupOf));
  };
  extractMarkup(code, ast.children.map(markupOf), options, units);
}

export async function extractSvelte(file: string, code: string, options: ScriptOptions, units: Unit[]) {
  svelte ??= load('svelte/compiler', 'Svelte', () => import('svelte/compiler'));
  const { parse } = await svelte;
  let root: Node;
  try {
    root = parse(code, { filename: file, modern: true });
  } catch (error) {
    const e = error as Error & { start?: { line: number; column: number } };
    throw new ComponentSyntaxError(
      file,
      e.message,
      e.start && { line: e.start.line, column: e.start.column + 1 },
    );
  }
  for (const script of [root.module, root.instance]) {
    if (!script) continue;
    const lang = script.attributes?.find((a: Node) => a.name === 'lang')?.value?.[0]?.data;
    const content = code.slice(script.content.start, script.content.end);
    extractScript(file, content, scriptLang(lang), options, units, script.content.start);
  }
  const fragmentOf = (fragment: Node): MarkupNode[] => (fragment?.nodes ?? []).map(markupOf);
  const markupOf = (node: Node): MarkupNode => {
    const { start, end } = node as { start: number; end: number };
    switch (node.type) {
      case 'Text':
        return { type: 'text', start, end, text: collapse(decodeEntities(node.raw)) };
      case 'ExpressionTag': {
        const leaves = leafUnits(textLeaves(node.expression));
        if (leaves.length === 0) return { type: 'expression', start, end, markup: false };
        return { type: 'expression', start, end, markup: true, visit: () => units.push(...leaves) };
      }
      case 'RegularElement':
      case 'Component':
      case 'SvelteElement': {
        const attributes: MarkupAttribute[] = [];
        let ignore = false;
        for (const a of node.attributes as Node[]) {
          if (a.type !== 'Attribute') continue;
          const value = Array.isArray(a.value) ? a.value : undefined;
          const text = value?.length === 1 && value[0].type === 'Text' ? value[0] : undefined;
          if (a.name === 'data-glossa-ignore' || (a.name === 'translate' && text?.data === 'no'))
            ignore = true;
          if (text) {
            attributes.push({
              name: a.name,
              start: text.start,
              end: text.end,
              value: text.data,
              escape: 'attribute',
            });
          }
        }
        return elementOf(start, end, node.name, attributes, ignore, fragmentOf(node.fragment));
      }
      default: {
        // Blocks ({#if}, {#each}, {#await}, {#key}, {#snippet}) and special elements: each branch's
        // fragment is a container of its own.
        const fragments = [
          'fragment',
          'consequent',
          'alternate',
          'body',
          'fallback',
          'pending',
          'then',
          'catch',
        ]
          .map((k) => node[k])
          .filter((f) => f && Array.isArray(f.nodes));
        return {
          type: 'block',
          start,
          end,
          visit: () => {
            for (const f of fragments) extractMarkup(code, fragmentOf(f), options, units);
          },
        };
      }
    }
  };
  extractMarkup(code, fragmentOf(root.fragment), options, units);
}

/** An element from its children's offsets: the opening tag ends where the first child starts. */
function elementOf(
  start: number,
  end: number,
  name: string,
  attributes: MarkupAttribute[],
  ignore: boolean,
  children: MarkupNode[],
): MarkupElement {
  const first = children[0];
  const last = children.at(-1);
  return {
    type: 'element',
    name,
    start,
    end,
    openEnd: first ? first.start : end,
    closeStart: last ? last.end : end,
    children,
    attributes,
    ignore,
  };
}

/** HTML whitespace as rendered: runs of spaces, tabs and line breaks are one space. */
const collapse = (text: string) => text.replace(/[ \t\n\r\f]+/g, ' ');
