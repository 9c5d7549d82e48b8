/** Front-matter fields (YAML or TOML) as segments, each a byte range of the file. */

import { parse as parseToml } from 'smol-toml';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

export interface FieldRange {
  /** Dotted field path, `/`-joined with item indexes: `title`, `keywords/0`. */
  readonly path: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

export interface FieldProblem {
  readonly offset: number;
  readonly reason: string;
}

/** The string fields of YAML front matter (`content` starts at `offset` in the file). */
export function yamlFields(content: string, offset: number, fields: readonly string[]) {
  const ranges: FieldRange[] = [];
  const problems: FieldProblem[] = [];
  const document = parseDocument(content, { keepSourceTokens: false });
  if (document.errors.length > 0) {
    problems.push({ offset, reason: `front matter is not valid YAML: ${document.errors[0]!.message}` });
    return { ranges, problems };
  }
  for (const field of expandStars(document, fields)) {
    const node = document.getIn(field.split('.'), true);
    if (node === undefined) continue;
    const items = isSeq(node)
      ? node.items.map((item, index) => [item, `${field}/${index}`] as const)
      : [[node, field] as const];
    for (const [item, path] of items) {
      if (isScalar(item) && typeof item.value === 'string' && item.range) {
        // A block scalar's range runs over its final line break: the field ends at its last character.
        const raw = content.slice(item.range[0], item.range[1]).trimEnd();
        ranges.push({
          path,
          value: item.value,
          start: offset + item.range[0],
          end: offset + item.range[0] + raw.length,
        });
      } else if (!isScalar(item) || (item.value !== null && item.value !== '')) {
        const at =
          offset + ((isScalar(item) || isMap(item) || isSeq(item)) && item.range ? item.range[0] : 0);
        problems.push({ offset: at, reason: `front-matter field \`${path}\` is not a string; left as is` });
      }
    }
  }
  return { ranges, problems };
}

/**
 * Paths with `*` for the items of a list (`features.*.title`, `hero.actions.*.text`) become one path per
 * item present (`features.0.title`, `features.1.title`); other paths stay as given.
 */
function expandStars(document: ReturnType<typeof parseDocument>, fields: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (done: string[], rest: string[]) => {
    const star = rest.indexOf('*');
    if (star === -1) {
      out.push([...done, ...rest].join('.'));
      return;
    }
    const head = [...done, ...rest.slice(0, star)];
    const list = head.length === 0 ? document.contents : document.getIn(head, true);
    if (!isSeq(list)) return;
    for (let index = 0; index < list.items.length; index++)
      walk([...head, String(index)], rest.slice(star + 1));
  };
  for (const field of fields) walk([], field.split('.'));
  return out;
}

const TOML_LINE =
  /^[ \t]*([A-Za-z0-9_-]+|"[^"\n]*")[ \t]*=[ \t]*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|.*?)[ \t]*(?:#.*)?$/gm;

/** The top-level single-line string fields of TOML front matter. */
export function tomlFields(content: string, offset: number, fields: readonly string[]) {
  const ranges: FieldRange[] = [];
  const problems: FieldProblem[] = [];
  const wanted = new Set(fields);
  const firstTable = content.search(/^[ \t]*\[/m);
  const topLevel = firstTable === -1 ? content : content.slice(0, firstTable);
  for (const match of topLevel.matchAll(TOML_LINE)) {
    const key = match[1]!.replace(/^"|"$/g, '');
    const raw = match[2]!;
    if (!wanted.has(key)) continue;
    const at = offset + match.index + match[0].indexOf(raw, match[0].indexOf('=') + 1);
    let value: unknown;
    try {
      value = (parseToml(`v = ${raw}`) as { v: unknown }).v;
    } catch {
      value = undefined;
    }
    if (typeof value !== 'string' || !/^["']/.test(raw)) {
      problems.push({
        offset: at,
        reason: `front-matter field \`${key}\` is not a one-line TOML string; left as is`,
      });
      continue;
    }
    ranges.push({ path: key, value, start: at, end: at + raw.length });
  }
  return { ranges, problems };
}
