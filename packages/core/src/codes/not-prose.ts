/**
 * Whole values that are not prose: a URL, an e-mail address, a path, code (CSS, JSON, a regular
 * expression, a JavaScript expression), an identifier, or a value without letters (numbers, symbols).
 * Adapters leave such values as they are in every locale (pseudo-locales included) and send nothing.
 */

export type NotProseKind = 'url' | 'email' | 'path' | 'code' | 'identifier' | 'no-words';

const URL = /^(?:https?:\/\/|mailto:|ftp:\/\/|www\.)\S+$/i;
const EMAIL = /^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$/;
const PATH =
  /^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)[^\s]*$|^[\w.-]+(?:\/[\w.-]+){2,}\/?$|^[\w-]+\.(?:json|js|ts|tsx|css|html?|md|png|svg|jpe?g|txt|csv|xml|ya?ml)$/;
/** camelCase, PascalCase with an inner capital, snake_case, SCREAMING_CASE, dotted.path (not kebab-case: `e-mail`). */
const IDENTIFIER =
  /^(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+|[a-z0-9]+(?:_[a-z0-9]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)$/;
const CSS = /^[\s\S]*?[^{}\s][^{}]*\{[^{}]*[\w-]+\s*:\s*[^{};]+;?[^{}]*\}\s*$/;
const COLOR = /^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const REGEX = /^\/.+\/[dgimsuvy]*$|^\^.*\$$/;
/** A braced JavaScript expression (`{cond ? 'a' : 'b'}`) or a call (`QUERY("{name}")`, `fn(x)`). */
const EXPRESSION = /^\{[\s\S]*(?:\?[\s\S]*:|=>|&&|\|\|)[\s\S]*\}$|^[A-Za-z_$][\w$.]*\([^()]*\)$/;

/** Why `value` is not prose, or `undefined` when it should be translated. */
export function notProse(value: string): NotProseKind | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (!/\p{L}/u.test(text)) return 'no-words';
  if (URL.test(text)) return 'url';
  if (EMAIL.test(text)) return 'email';
  if (/\s/.test(text)) {
    if (CSS.test(text) && /[;{]\s*(?:--)?[\w-]+\s*:/.test(text)) return 'code';
    if (EXPRESSION.test(text)) return 'code';
    if (isJson(text)) return 'code';
    return undefined;
  }
  if (PATH.test(text)) return 'path';
  if (REGEX.test(text) || COLOR.test(text)) return 'code';
  if (IDENTIFIER.test(text)) return 'identifier';
  if (EXPRESSION.test(text) || CSS.test(text) || isJson(text)) return 'code';
  return undefined;
}

function isJson(text: string): boolean {
  if (!/^[[{][\s\S]*[\]}]$/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
