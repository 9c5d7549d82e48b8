/**
 * The quality checks' case folding: a text's lower case in its own language, never in the server process's
 * locale. `toLocaleLowerCase()` without a language follows LANG/LC_ALL: under a Turkish locale `FILE` is
 * `fıle`, so a check's answer depended on how the server was started. The languages whose lower case
 * differs from the default one (Unicode's SpecialCasing: Turkish and Azeri dotted and dotless i, Lithuanian
 * dots kept over an accented i) use theirs; every other language, and a text of no given language, the
 * locale-independent lower case (`toLowerCase()`).
 */

/** The languages with a lower case of their own. */
const OWN_LOWER_CASE = new Set(['tr', 'az', 'lt']);

/** The language whose lower case `lang` (a language code: `tr`, `TR`, `tr-TR`, `tr_TR`) uses: `tr`, `az`, `lt` or ''. */
export function caseLanguage(lang: string | undefined): string {
  const base = (lang ?? '').split(/[-_]/)[0]!.toLowerCase();
  return OWN_LOWER_CASE.has(base) ? base : '';
}

/** `text` lower-cased as in `lang` (a language code, or none: the locale-independent lower case). */
export function lowerCase(text: string, lang?: string): string {
  const own = caseLanguage(lang);
  return own === '' ? text.toLowerCase() : text.toLocaleLowerCase(own);
}
