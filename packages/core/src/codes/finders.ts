/**
 * Code finders: locate placeholders and inline markup in a raw string so they travel as codes.
 * A finder returns matches in any order; `encodeWithCodes` sorts them, drops overlaps and pairs
 * `open`/`close` matches by name.
 */

export interface FoundCode {
  readonly start: number;
  readonly end: number;
  /** `x`: standalone; `open`/`close`: one side of paired markup, matched by `name`. */
  readonly role: 'x' | 'open' | 'close';
  readonly name?: string;
}

export type CodeFinder = (text: string) => FoundCode[];

function regexFinder(pattern: RegExp, classify: (m: RegExpExecArray) => Omit<FoundCode, 'start' | 'end'>) {
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return (text: string): FoundCode[] => {
    const re = new RegExp(pattern.source, flags);
    const found: FoundCode[] = [];
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      found.push({ start: m.index, end: m.index + m[0].length, ...classify(m) });
    }
    return found;
  };
}

/** Elements i18next's `<Trans>` keeps by name (`transKeepBasicHtmlNodesFor`). */
const I18NEXT_BASIC_NODES = 'br|strong|i|p|b|em|u|span';

/**
 * i18next: `{{var}}`, `{{var, format}}`, `{{- var}}` (unescaped), nesting `$t(key)` / `$t(key, {...})`,
 * and `<Trans>` components `<0>…</0>`, `<1/>`, `<strong>…</strong>`, `<br/>`.
 */
export const i18nextCodes: CodeFinder = regexFinder(
  new RegExp(
    `\\{\\{[^{}]*\\}\\}|\\$t\\([^()]*\\)|<(\\d+|${I18NEXT_BASIC_NODES})\\s*\\/>|<(\\d+|${I18NEXT_BASIC_NODES})>|<\\/(\\d+|${I18NEXT_BASIC_NODES})>`,
  ),
  (m) => {
    if (m[2] !== undefined) return { role: 'open', name: m[2] };
    if (m[3] !== undefined) return { role: 'close', name: m[3] };
    return { role: 'x' };
  },
);

/**
 * printf: `%s`, `%d`, `%1$s`, `%(name)s`, `%.2f`, `%@`, `%%`. The space flag is not recognised, so
 * "100% sure" stays text.
 */
export const printfCodes: CodeFinder = regexFinder(
  /%(?:\d+\$)?(?:\([A-Za-z_][\w.]*\))?[-+0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGcrsaAp@%]/,
  () => ({ role: 'x' }),
);

/** Combines finders; earlier finders win where matches overlap. */
export function combineFinders(...finders: CodeFinder[]): CodeFinder {
  return (text) => finders.flatMap((find) => find(text));
}
