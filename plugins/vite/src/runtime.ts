/**
 * `@glossa/vite/runtime`: the tag that marks a template literal for translation outside markup. At
 * build time the plugin writes each locale's text into the literal; at run time the tag only joins the
 * parts, like an untagged template: `` msg`Saved ${count} files` `` is a string.
 */
export function msg(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += String(values[i]) + (strings[i + 1] ?? '');
  return out;
}
