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

/** A tag name: an indexed Trans component (`<0>`) or a named one (`<bold>`, `<totalAmount />`, `<strong>`). */
const TAG_NAME = '\\d+|[A-Za-z][\\w.:-]*';

/**
 * Tags as react-i18next's `<Trans>` reads them: indexed components `<0>…</0>`, `<1/>`, named components
 * (`components={{ bold: <strong /> }}`: `<bold>…</bold>`, `<totalAmount />`), the elements kept by
 * `transKeepBasicHtmlNodesFor` (`<strong>`, `<br/>`) and HTML with attributes (`<a href="…">`), whose
 * attribute values (link targets) travel inside the code.
 */
export const tagCodes: CodeFinder = regexFinder(
  new RegExp(`<(${TAG_NAME})(?:\\s+[^<>]*?)?\\s*\\/>|<(${TAG_NAME})(?:\\s+[^<>]*)?>|<\\/(${TAG_NAME})\\s*>`),
  (m) => {
    if (m[2] !== undefined) return { role: 'open', name: m[2] };
    if (m[3] !== undefined) return { role: 'close', name: m[3] };
    return { role: 'x' };
  },
);

/**
 * Values that are not prose inside a value: URLs, e-mail addresses, Markdown link targets
 * (`[text](https://…#anchor)`: the text is translated, `](…)` is a code) and anchors (`(#undo)`).
 */
export const linkCodes: CodeFinder = (text) => {
  const found: FoundCode[] = [];
  if (!/[[@]|:\/\/|www\.|mailto:/.test(text)) return found;
  // Markdown links: `[` and `](target)` as a pair around the link text.
  for (const m of text.matchAll(/\[([^[\]\n]+)\]\(([^()\s]+)\)/g)) {
    const at = m.index;
    const close = at + 1 + m[1]!.length;
    found.push({ start: at, end: at + 1, role: 'open', name: `[${at}` });
    found.push({ start: close, end: at + m[0].length, role: 'close', name: `[${at}` });
  }
  const url = /\b(?:https?:\/\/|mailto:|www\.)[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
  for (const m of text.matchAll(url)) found.push({ start: m.index, end: m.index + m[0].length, role: 'x' });
  return found;
};

const i18nextArguments = regexFinder(
  /\{\{[^{}]*\}\}|\$t\((?:[^()]|\([^()]*\))*\)|\{\s*[\w$.-]+\s*\}/,
  () => ({ role: 'x' }),
);

/**
 * i18next: `{{var}}`, `{{var, format}}`, `{{- var}}` (unescaped), nesting `$t(key)` / `$t(key, {...})`,
 * single-brace arguments (`{url}`, `{versionInfo.latestVersion}`, as react-i18next `<Trans>` values and
 * i18next-icu write them), `<Trans>` components (see `tagCodes`), and links (see `linkCodes`).
 */
export const i18nextCodes: CodeFinder = (text) => [
  ...(text.includes('{') || text.includes('$t(') ? i18nextArguments(text) : []),
  ...(text.includes('<') ? tagCodes(text) : []),
  ...linkCodes(text),
];

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
