/**
 * Vue single-file components (`@vue/compiler-sfc`, through `vue/compiler-sfc`) and Svelte components
 * (`svelte/compiler`): the template's markup, and tagged templates and marked strings in `<script>`.
 * Both compilers are the app's own (peer dependencies), loaded on the first component of their kind.
 */
import { extractMarkup, type MarkupAttribute, type MarkupElement, type MarkupNode } from './markup.js';
import {
  ComponentSyntaxError,
  extractScript,
  isRouteLink,
  leafUnits,
  loadParser,
  type ScriptOptions,
  stringConditional,
  textLeafUnits,
  textLeaves,
} from './script.js';
import { decodeEntities, type Edit, type Unit } from './units.js';

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
const COMMENT = 3;
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

/**
 * `<button><i/> {{ favorited ? 'Unfavorite' : 'Favorite' }} Article</button>` → the element's content
 * once per branch, `<template v-if="favorited"><i/> Unfavorite Article</template><template v-else>…`,
 * so that each branch is translated as a sentence with the rest of it. Done where the content is text,
 * interpolations and inline elements, with one `{{ test ? 'string' : 'string' }}` beside some text.
 * The same markup renders. Returns the edits (none when there is nothing to rewrite).
 */
export async function splitVueConditionals(code: string, inline: ReadonlySet<string>): Promise<Edit[]> {
  if (!/\?/.test(code) || !code.includes('{{')) return [];
  vue ??= load('vue/compiler-sfc', 'Vue', () => import('vue/compiler-sfc'));
  const [{ parse }] = await Promise.all([vue, loadParser()]);
  const { descriptor, errors } = parse(code, { sourceMap: false });
  const ast = descriptor.template?.ast;
  if (errors.length > 0 || !ast || (descriptor.template?.lang && descriptor.template.lang !== 'html')) {
    return [];
  }
  const edits: Edit[] = [];
  const phrasing = (n: Node): boolean =>
    n.type === TEXT ||
    n.type === INTERPOLATION ||
    n.type === COMMENT ||
    (n.type === ELEMENT && n.tagType === 0 && inline.has(n.tag) && (n.children as Node[]).every(phrasing));
  const walk = (node: Node) => {
    const children = (node.children ?? []) as Node[];
    const conditionals = children
      .filter((c) => c.type === INTERPOLATION && typeof c.content?.content === 'string')
      .map((c) => ({ node: c, split: stringConditional(c.content.content) }))
      .filter((c) => c.split);
    const text = children.some((c) => c.type === TEXT && /\p{L}/u.test(c.content));
    if (conditionals.length === 1 && text && children.every(phrasing)) {
      const { node: at, split } = conditionals[0]!;
      const tests = split!.tests;
      const quote = !tests.some((t) => t.includes('"'))
        ? '"'
        : !tests.some((t) => t.includes("'"))
          ? "'"
          : undefined;
      if (quote) {
        const start = children[0]!.loc.start.offset as number;
        const end = children.at(-1)!.loc.end.offset as number;
        const branch = (value: string) =>
          code.slice(start, at.loc.start.offset) + escapeText(value) + code.slice(at.loc.end.offset, end);
        const [yes, ...others] = split!.branches;
        const rest = others.map((value, i) =>
          i + 1 < tests.length
            ? `<template v-else-if=${quote}${tests[i + 1]}${quote}>${branch(value)}</template>`
            : `<template v-else>${branch(value)}</template>`,
        );
        // The first branch stays where the content was (its source map too); the others follow it.
        edits.push(
          { start, end: start, text: `<template v-if=${quote}${tests[0]}${quote}>` },
          { start: at.loc.start.offset, end: at.loc.end.offset, text: escapeText(yes!) },
          { start: end, end, text: `</template>${rest.join('')}` },
        );
        return;
      }
    }
    for (const c of children) walk(c);
  };
  walk(ast);
  return edits;
}

/** A string's value as Vue template text. */
const escapeText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('{', '&#123;');

/**
 * Svelte's form of `splitVueConditionals`: `<button><i></i> {fav ? 'Unfavorite' : 'Favorite'} Article</button>`
 * → `<button>{#if fav}<i></i> Unfavorite Article{:else}<i></i> Favorite Article{/if}</button>`.
 */
export async function splitSvelteConditionals(code: string, inline: ReadonlySet<string>): Promise<Edit[]> {
  if (!/\?/.test(code)) return [];
  svelte ??= load('svelte/compiler', 'Svelte', () => import('svelte/compiler'));
  const [{ parse }] = await Promise.all([svelte, loadParser()]);
  let root: Node;
  try {
    root = parse(code, { modern: true });
  } catch {
    return [];
  }
  const edits: Edit[] = [];
  const phrasing = (n: Node): boolean =>
    n.type === 'Text' ||
    n.type === 'ExpressionTag' ||
    n.type === 'Comment' ||
    (n.type === 'RegularElement' && inline.has(n.name) && (n.fragment.nodes as Node[]).every(phrasing));
  const split = (nodes: Node[]): boolean => {
    const conditionals = nodes
      .filter((c) => c.type === 'ExpressionTag')
      .map((c) => ({ node: c, split: stringConditional(code.slice(c.expression.start, c.expression.end)) }))
      .filter((c) => c.split);
    if (conditionals.length !== 1 || !nodes.every(phrasing)) return false;
    if (!nodes.some((c) => c.type === 'Text' && /\p{L}/u.test(c.data))) return false;
    const { node: at, split } = conditionals[0]!;
    let start = nodes[0]!.start as number;
    let end = nodes.at(-1)!.end as number;
    while (start < at.start && /\s/.test(code[start]!)) start++;
    while (end > at.end && /\s/.test(code[end - 1]!)) end--;
    const branch = (value: string) =>
      code.slice(start, at.start) + escapeSvelteText(value) + code.slice(at.end, end);
    const { tests, branches } = split!;
    const rest = branches
      .slice(1)
      .map((value, i) => (i + 1 < tests.length ? `{:else if ${tests[i + 1]}}` : '{:else}') + branch(value));
    edits.push(
      { start, end: start, text: `{#if ${tests[0]}}` },
      { start: at.start, end: at.end, text: escapeSvelteText(branches[0]!) },
      { start: end, end, text: `${rest.join('')}{/if}` },
    );
    return true;
  };
  const walk = (node: Node) => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (node.type === 'Fragment' && Array.isArray(node.nodes) && split(node.nodes)) return;
    for (const key in node) {
      if (key === 'start' || key === 'end' || key === 'loc' || key === 'metadata') continue;
      const value = node[key];
      if (value && typeof value === 'object' && (Array.isArray(value) || 'type' in value)) walk(value);
    }
  };
  walk(root.fragment);
  return edits;
}

/** A string's value as Svelte template text. */
const escapeSvelteText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('{', '&#123;').replaceAll('}', '&#125;');

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

/**
 * `localeLinkEdits` for Vue and Svelte templates: a static `<a href="/about">` (or `<area>`) to one of
 * the app's pages gets the locale's folder after the base (`/es/about`). Bound hrefs (`:href`,
 * `href={x}`), router links, files, external and relative URLs stay. No edits when the file does not parse.
 */
export async function sfcLinkEdits(
  file: string,
  code: string,
  prefix: string,
  folder: string,
  folders: readonly string[],
): Promise<Edit[]> {
  const edits: Edit[] = [];
  if (!code.includes('href')) return edits;
  const add = (value: string, start: number) => {
    if (isRouteLink(value, prefix, folders) && code.startsWith(prefix, start)) {
      edits.push({ start: start + prefix.length, end: start + prefix.length, text: folder });
    }
  };
  const isLink = (tag: string) => tag === 'a' || tag === 'area';
  if (file.endsWith('.vue')) {
    vue ??= load('vue/compiler-sfc', 'Vue', () => import('vue/compiler-sfc'));
    const { descriptor, errors } = (await vue).parse(code, { filename: file, sourceMap: false });
    if (errors.length > 0 || !descriptor.template?.ast) return edits;
    if (descriptor.template.lang && descriptor.template.lang !== 'html') return edits;
    const walk = (node: Node) => {
      if (node.type !== ELEMENT) return;
      if (isLink(node.tag)) {
        for (const p of node.props as Node[]) {
          if (p.type !== ATTRIBUTE || p.name !== 'href' || !p.value) continue;
          const quoted = /^["']/.test(p.value.loc.source);
          add(p.value.content, p.value.loc.start.offset + (quoted ? 1 : 0));
        }
      }
      for (const child of node.children ?? []) walk(child);
    };
    for (const child of descriptor.template.ast.children) walk(child);
  } else if (file.endsWith('.svelte')) {
    svelte ??= load('svelte/compiler', 'Svelte', () => import('svelte/compiler'));
    let root: Node;
    try {
      root = (await svelte).parse(code, { filename: file, modern: true });
    } catch {
      return edits;
    }
    const walk = (node: Node) => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const n of node) walk(n);
        return;
      }
      if (node.type === 'RegularElement' && isLink(node.name)) {
        for (const a of node.attributes ?? []) {
          if (a.type !== 'Attribute' || a.name !== 'href' || !Array.isArray(a.value) || a.value.length !== 1)
            continue;
          const text = a.value[0];
          if (text.type === 'Text' && text.raw === text.data) add(text.data, text.start);
        }
      }
      for (const key of [
        'fragment',
        'nodes',
        'consequent',
        'alternate',
        'body',
        'pending',
        'then',
        'catch',
      ]) {
        if (key in node) walk(node[key]);
      }
    };
    walk(root.fragment);
  }
  return edits;
}
