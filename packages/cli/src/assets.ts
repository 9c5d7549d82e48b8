/**
 * The files a Markdown page refers to by a relative path (images, downloads: `![](./img/a.png)`,
 * `<img src="./a.png">`, MDX `require('./a.png')` and `import a from './a.png'`, a YAML front-matter value
 * such as Starlight's `hero.image.file: ../../assets/a.webp`), copied next to its
 * translation when that lives in another folder (Docusaurus's `i18n/<locale>/…`, VitePress's
 * `docs/<locale>/…`, Starlight's `src/content/docs/<locale>/…`), where the framework looks for them. Pages (`.md`, `.mdx`) are not copied: they are
 * translated themselves. A copy that is already identical is not written again; nothing is read or
 * written outside the project's root.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';

const REFERENCE =
  /\]\(\s*<?(\.\.?\/[^)\s>#?]+)|\b(?:src|href)=["'](\.\.?\/[^"'#?]+)|\brequire\(\s*["'](\.\.?\/[^"'#?]+)["']\s*\)|\bfrom\s+["'](\.\.?\/[^"'#?]+)["']|^[ \t]*(?:- )?[\w-]+:[ \t]+["']?(\.\.?\/[^"'\s#?]+)["']?[ \t]*$/gm;
const PAGE = /\.(?:md|mdx|markdown)$/i;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const decoded = (reference: string) => {
  try {
    return decodeURIComponent(reference);
  } catch {
    return reference;
  }
};

/** Copies what `sourceText` (the page at `source`) refers to beside `output`; returns the paths written. */
export async function copyReferencedFiles(
  root: string,
  source: string,
  sourceText: string,
  output: string,
): Promise<string[]> {
  if (dirname(source) === dirname(output)) return [];
  const written: string[] = [];
  const seen = new Set<string>();
  for (const match of sourceText.matchAll(REFERENCE)) {
    const reference = decoded((match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[5])!);
    if (PAGE.test(reference) || seen.has(reference)) continue;
    seen.add(reference);
    const from = resolve(dirname(source), reference);
    const to = resolve(dirname(output), reference);
    if (!inside(root, from) || !inside(root, to)) continue;
    // A missing file (or a folder) is left to the framework's own check of the source page.
    const bytes = await readFile(from).catch(() => undefined);
    if (bytes === undefined) continue;
    const existing = await readFile(to).catch(() => undefined);
    if (existing?.equals(bytes)) continue;
    await mkdir(dirname(to), { recursive: true });
    await writeFile(to, bytes);
    written.push(to);
  }
  return written;
}
