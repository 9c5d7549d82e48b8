/**
 * ICU MessageFormat: arguments (`{name}`, `{n, number}`, `#`) become standalone codes; each branch of a
 * `plural`, `selectordinal` or `select` becomes a segment of its own (key `<key>/<arg>.<selector>`), and
 * the whole construct is one code in the text around it. `rebuild` puts translated branches back.
 */
import { MessageFormatError } from '../errors.js';
import type { CodeMap, InlineCode } from '../segment.js';
import { escapeInlineText, parseInline } from './inline.js';

type IcuNode =
  | { readonly type: 'text'; readonly value: string; readonly raw: string }
  | { readonly type: 'arg'; readonly raw: string }
  | { readonly type: 'pound' }
  /** Rich-text tag (`<b>…</b>`, `<br/>`): a paired code around its children, in the same segment. */
  | {
      readonly type: 'tag';
      readonly open: string;
      readonly close: string;
      readonly children: IcuNode[] | null;
    }
  | {
      readonly type: 'branching';
      readonly name: string;
      readonly kind: string;
      readonly head: string;
      readonly options: readonly {
        readonly lead: string;
        readonly selector: string;
        readonly nodes: IcuNode[];
      }[];
      readonly tail: string;
    };

const BRANCHING = new Set(['plural', 'selectordinal', 'select']);
const TAG_START = /^<([A-Za-z][\w-]*)\s*(\/?)>/;
const TAG_END = /^<\/([A-Za-z][\w-]*)\s*>/;

class Parser {
  i = 0;
  constructor(
    readonly s: string,
    /** Angular's dialect: apostrophes are plain text (no quoting) and `#` is plain text. */
    readonly angular = false,
  ) {}

  fail(message: string): never {
    throw new MessageFormatError(message, this.i);
  }

  message(inPlural: boolean, nested: boolean, closeTag?: string): IcuNode[] {
    const nodes: IcuNode[] = [];
    let text = '';
    let from = this.i;
    const s = this.s;
    const pushText = () => {
      if (text) nodes.push({ type: 'text', value: text, raw: s.slice(from, this.i) });
      text = '';
    };
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === "'" && !this.angular) {
        const next = s[this.i + 1];
        if (next === "'") {
          text += "'";
          this.i += 2;
        } else if (
          next === '{' ||
          next === '}' ||
          next === '|' ||
          next === '<' ||
          (next === '#' && inPlural)
        ) {
          this.i++;
          while (this.i < s.length) {
            if (s[this.i] === "'" && s[this.i + 1] === "'") {
              text += "'";
              this.i += 2;
            } else if (s[this.i] === "'") break;
            else text += s[this.i++];
          }
          this.i++;
        } else {
          text += c;
          this.i++;
        }
      } else if (c === '{') {
        pushText();
        nodes.push(this.argument(inPlural));
        from = this.i;
      } else if (c === '}') {
        if (closeTag !== undefined) this.fail(`<${closeTag}> is not closed`);
        if (!nested) this.fail("Unmatched '}'");
        break;
      } else if (c === '<' && TAG_END.test(s.slice(this.i, this.i + 64))) {
        const end = TAG_END.exec(s.slice(this.i, this.i + 64))!;
        if (end[1] !== closeTag) this.fail(`Unexpected '${end[0]}'`);
        break;
      } else if (c === '<' && TAG_START.test(s.slice(this.i, this.i + 64))) {
        pushText();
        const [open, name, selfClosing] = TAG_START.exec(s.slice(this.i, this.i + 64))!;
        this.i += open.length;
        if (selfClosing) nodes.push({ type: 'tag', open, close: '', children: null });
        else {
          const children = this.message(inPlural, nested, name);
          const close = TAG_END.exec(s.slice(this.i, this.i + 64))?.[0] ?? '';
          this.i += close.length;
          nodes.push({ type: 'tag', open, close, children });
        }
        from = this.i;
      } else if (c === '#' && inPlural && !this.angular) {
        pushText();
        nodes.push({ type: 'pound' });
        this.i++;
        from = this.i;
      } else {
        text += c;
        this.i++;
      }
    }
    pushText();
    if (closeTag !== undefined && !s.startsWith(`</${closeTag}`, this.i))
      this.fail(`<${closeTag}> is not closed`);
    return nodes;
  }

  argument(inPlural: boolean): IcuNode {
    const start = this.i++;
    const name = this.until(/[,}]/).trim();
    if (!name) this.fail('Argument without a name');
    if (this.s[this.i] === '}') return { type: 'arg', raw: this.s.slice(start, ++this.i) };
    this.i++;
    const kind = this.until(/[,}]/).trim();
    if (!BRANCHING.has(kind)) {
      let depth = 1;
      while (this.i < this.s.length && depth > 0) {
        const c = this.s[this.i++];
        if (c === '{') depth++;
        else if (c === '}') depth--;
      }
      if (depth > 0) this.fail(`Argument '${name}' is not closed`);
      return { type: 'arg', raw: this.s.slice(start, this.i) };
    }
    if (this.s[this.i] !== ',') this.fail(`'${kind}' argument '${name}' has no options`);
    this.i++;
    const offset = /^\s*offset\s*:\s*\d+/.exec(this.s.slice(this.i));
    if (offset) this.i += offset[0].length;
    const head = this.s.slice(start, this.i);
    const options: { lead: string; selector: string; nodes: IcuNode[] }[] = [];
    let tail = '}';
    for (;;) {
      const lead = /^\s*/.exec(this.s.slice(this.i))![0];
      this.i += lead.length;
      if (this.s[this.i] === '}') {
        tail = `${lead}}`;
        break;
      }
      if (this.i >= this.s.length) this.fail(`'${name}' is not closed`);
      const selector = /^(=\d+|[\w-]+)\s*/.exec(this.s.slice(this.i));
      if (!selector) this.fail(`Expected a selector in '${name}'`);
      this.i += selector[0].length;
      if (this.s[this.i] !== '{') this.fail(`Expected '{' after selector '${selector[1]}'`);
      this.i++;
      const nodes = this.message(inPlural || kind !== 'select', true);
      if (this.s[this.i] !== '}') this.fail(`Branch '${selector[1]}' of '${name}' is not closed`);
      this.i++;
      options.push({ lead: lead + selector[0], selector: selector[1]!, nodes });
    }
    if (!options.some((o) => o.selector === 'other')) this.fail(`'${name}' has no 'other' branch`);
    this.i++;
    return { type: 'branching', name, kind, head, options, tail };
  }

  until(stop: RegExp): string {
    const from = this.i;
    while (this.i < this.s.length && !stop.test(this.s[this.i]!)) this.i++;
    if (this.i >= this.s.length) this.fail('Unexpected end of message');
    return this.s.slice(from, this.i);
  }
}

export interface IcuSegment {
  readonly key: string;
  readonly source: string;
  readonly codes: CodeMap;
}

export interface IcuExtraction {
  /** One segment per text run that has words: the top level and every branch, in order. */
  readonly segments: readonly IcuSegment[];
  /**
   * The message with each segment replaced by its target (missing targets keep the source). With a
   * `locale`, each `plural`/`selectordinal` also gets the categories that locale has and neither the
   * message nor its source language has (Polish `few` and `many` for English `one`/`other`), each holding
   * the `other` branch's translation, for a reviewer to refine.
   */
  rebuild(targets: ReadonlyMap<string, string>, options?: RebuildOptions): string;
}

export interface RebuildOptions {
  /** The target's locale (BCP 47), for its plural categories. */
  readonly locale?: string | undefined;
  /** The source's locale: categories it has too were left out by the message's author on purpose. */
  readonly sourceLocale?: string | undefined;
}

/** Escapes literal text for ICU output with the minimal apostrophe quoting (Angular's dialect has none). */
function escapeIcuText(
  text: string,
  inPlural: boolean,
  nextChar: string | undefined,
  angular: boolean,
): string {
  if (angular) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '{' || c === '}' || c === '<' || (c === '#' && inPlural)) out += `'${c}'`;
    else if (c === "'") {
      const n = i + 1 < text.length ? text[i + 1] : nextChar;
      const special =
        n === "'" || n === '{' || n === '}' || n === '|' || n === '<' || (n === '#' && inPlural);
      out += special ? "''" : "'";
    } else out += c;
  }
  return out;
}

type Builder = (targets: ReadonlyMap<string, string>, options: RebuildOptions) => string;

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** The plural categories of `locale` (none when it is not a BCP 47 tag). */
function categories(locale: string, ordinal: boolean): string[] {
  try {
    const rules = new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' });
    return rules.resolvedOptions().pluralCategories as string[];
  } catch {
    return [];
  }
}

/** The categories the target locale has and neither the message's selectors nor its source locale has. */
function missingCategories(
  options: RebuildOptions,
  ordinal: boolean,
  selectors: readonly string[],
): string[] {
  if (options.locale === undefined) return [];
  const target = categories(options.locale, ordinal);
  const source = options.sourceLocale === undefined ? [] : categories(options.sourceLocale, ordinal);
  return CATEGORIES.filter((c) => target.includes(c) && !source.includes(c) && !selectors.includes(c));
}

export interface IcuOptions {
  /**
   * `icu` (default): ICU MessageFormat as FormatJS, i18next-icu and next-intl read it. `angular`: as
   * Angular's i18n reads ICU in templates and XLIFF: an apostrophe is plain text (it quotes nothing) and `#`
   * is plain text; a brace a translation adds cannot be escaped (the caller checks the result parses).
   */
  readonly dialect?: 'icu' | 'angular';
}

/** Parses an ICU message and lists its segments. Throws `MessageFormatError` with an offset. */
export function extractIcu(message: string, key: string, options: IcuOptions = {}): IcuExtraction {
  const angular = options.dialect === 'angular';
  const nodes = new Parser(message, angular).message(false, false);
  const segments: IcuSegment[] = [];

  const level = (list: readonly IcuNode[], path: string, inPlural: boolean): Builder => {
    const codes: Record<string, InlineCode> = {};
    const builders = new Map<string, Builder>();
    const at = segments.length; // this level comes before its branches
    let source = '';
    let words = false;
    let next = 1;
    const emit = (nodes: readonly IcuNode[]) => {
      for (const node of nodes) {
        if (node.type === 'text') {
          source += escapeInlineText(node.value);
          if (/[\p{L}\p{N}]/u.test(node.value)) words = true;
          continue;
        }
        const id = String(next++);
        if (node.type === 'tag') {
          if (node.children === null) {
            source += `<x id="${id}"/>`;
            codes[id] = { kind: 'x', text: node.open };
          } else {
            source += `<g id="${id}">`;
            codes[id] = { kind: 'g', open: node.open, close: node.close };
            emit(node.children);
            source += '</g>';
          }
          continue;
        }
        source += `<x id="${id}"/>`;
        if (node.type === 'branching') {
          const plural = inPlural || node.kind !== 'select';
          const branches = node.options.map((o) => ({
            selector: o.selector,
            lead: o.lead,
            build: level(o.nodes, `${path}/${node.name}.${o.selector}`, plural),
          }));
          builders.set(id, (t, options) => {
            const added =
              node.kind === 'select'
                ? []
                : missingCategories(
                    options,
                    node.kind === 'selectordinal',
                    branches.map((b) => b.selector),
                  );
            return (
              node.head +
              branches
                .map((b) => {
                  const own = `${b.lead}{${b.build(t, options)}}`;
                  if (b.selector !== 'other' || added.length === 0) return own;
                  // After `other`, so the source's branches keep their order (and their codes' ids).
                  const extra = added.map((c) => `${b.lead.replace('other', c)}{${b.build(t, options)}}`);
                  return own + extra.join('');
                })
                .join('') +
              node.tail
            );
          });
          codes[id] = { kind: 'x', text: `{${node.name}}` };
        } else {
          codes[id] = { kind: 'x', text: node.type === 'pound' ? '#' : node.raw };
        }
      }
    };
    emit(list);
    if (words) segments.splice(at, 0, { key: path, source, codes });
    const raw = (id: string, targets: ReadonlyMap<string, string>, options: RebuildOptions) =>
      builders.get(id)?.(targets, options) ?? codes[id]?.text ?? '';
    return (targets, options) => {
      const target = words ? (targets.get(path) ?? source) : source;
      if (target === source) {
        // Unchanged: keep the original bytes (quoting as written), codes numbered as in `emit`.
        let id = 0;
        const original = (nodes: readonly IcuNode[]): string =>
          nodes
            .map((n) => {
              if (n.type === 'text') return n.raw;
              const code = String(++id);
              if (n.type !== 'tag') return raw(code, targets, options);
              return n.children === null ? n.open : n.open + original(n.children) + n.close;
            })
            .join('');
        return original(list);
      }
      const tokens = parseInline(target);
      const open: string[] = [];
      return tokens
        .map((t, i) => {
          if (t.type === 'x') return raw(t.id, targets, options);
          if (t.type === 'open') {
            open.push(t.id);
            return codes[t.id]?.open ?? '';
          }
          if (t.type === 'close') return codes[open.pop()!]?.close ?? '';
          const after = tokens[i + 1];
          const nextChar =
            after?.type === 'x'
              ? raw(after.id, targets, options)[0]
              : after?.type === 'open' || after?.type === 'close'
                ? '<'
                : undefined;
          return escapeIcuText(t.text, inPlural, nextChar, angular);
        })
        .join('');
    };
  };

  const build = level(nodes, key, false);
  return { segments, rebuild: (targets, options = {}) => build(targets, options) };
}
