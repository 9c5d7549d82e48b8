/** What the HTML adapter does with each element and attribute. */
import type { Element } from 'hast';

/** Elements whose content is never translated (kept byte for byte). */
export const UNTOUCHED = new Set([
  'script', 'style', 'code', 'pre', 'kbd', 'samp', 'var', 'textarea', 'svg', 'math', 'template', 'iframe',
  'object', 'noscript',
]); // biome-ignore format: a word list

/** Phrasing elements: inside a sentence they become codes, so the sentence stays one segment. */
export const INLINE = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font',
  'i', 'img', 'input', 'ins', 'kbd', 'mark', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span',
  'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr',
]); // biome-ignore format: a word list

export const VOID = new Set([
  'br',
  'img',
  'input',
  'wbr',
  'area',
  'embed',
  'source',
  'track',
  'hr',
  'meta',
  'link',
]);

/** Attributes translated on any element (hast property name → HTML attribute name). */
export const TEXT_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ['alt', 'alt'],
  ['title', 'title'],
  ['placeholder', 'placeholder'],
  ['ariaLabel', 'aria-label'],
  ['aria-description', 'aria-description'],
  ['ariaDescription', 'aria-description'],
  ['label', 'label'],
]);

/** `<meta>` whose `content` is text to translate (by `name` or `property`). */
const META_TEXT =
  /^(description|og:(title|description|site_name|image:alt|video:alt)|twitter:(title|description|image:alt))$/i;

const stringOf = (value: unknown) =>
  Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '';

/** The translatable attributes of an element, as [hast property, attribute name]. */
export function translatableAttributes(element: Element): [string, string][] {
  const found: [string, string][] = [];
  for (const [property, name] of TEXT_ATTRIBUTES)
    if (typeof element.properties[property] === 'string') found.push([property, name]);
  const { properties } = element;
  if (
    element.tagName === 'meta' &&
    META_TEXT.test(stringOf(properties['name']) || stringOf(properties['property']))
  )
    found.push(['content', 'content']);
  if (element.tagName === 'input' && /^(button|submit|reset)$/i.test(stringOf(properties['type'])))
    found.push(['value', 'value']);
  return found;
}

/**
 * `translate="no"` / `class="notranslate"` → false, `translate="yes"` → true, otherwise inherited.
 * Vue's `v-pre` (content shown exactly as written, `{{ }}` included) → false.
 */
export function translateState(element: Element, inherited: boolean): boolean {
  const translate = stringOf(element.properties['translate']).toLowerCase();
  if (translate === 'no') return false;
  if ('v-pre' in element.properties || 'vPre' in element.properties) return false;
  if (translate === 'yes') return true;
  const classes = element.properties['className'];
  if (Array.isArray(classes) && classes.includes('notranslate')) return false;
  return inherited;
}
