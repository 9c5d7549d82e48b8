import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyReferencedFiles } from '../src/assets.js';

let root: string;
const page = () => join(root, 'docs', 'intro.md');
const output = () => join(root, 'i18n', 'es', 'current', 'intro.md');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'glossa-assets-'));
  await mkdir(join(root, 'docs', 'img'), { recursive: true });
  await writeFile(join(root, 'docs', 'img', 'logo one.png'), 'png');
  await writeFile(join(root, 'docs', 'banner.jpg'), 'jpg');
  await writeFile(join(root, 'docs', 'guide.pdf'), 'pdf');
  await writeFile(join(root, 'docs', 'demo.mp4'), 'mp4');
  await writeFile(join(root, 'docs', 'other.md'), '# Other');
  await writeFile(join(root, 'secret.txt'), 'outside docs, inside the root');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const SOURCE = `# Intro

![Logo](./img/logo%20one.png "The logo") and ![again](./img/logo%20one.png)
<img src="./banner.jpg" alt="Banner" />
[the guide](./guide.pdf#page=2), [another page](./other.md), [outside](../../../../etc/passwd)
import video from './demo.mp4';
<img src={require('./banner.jpg').default} />
[site](https://example.com/a.png) ![absolute](/img/static.png)
`;

describe('copyReferencedFiles', () => {
  it("copies a page's relative images and downloads beside its output, once, and never a page", async () => {
    const written = await copyReferencedFiles(root, page(), SOURCE, output());
    const out = join(root, 'i18n', 'es', 'current');
    expect(written.sort()).toEqual(
      [
        join(out, 'banner.jpg'),
        join(out, 'demo.mp4'),
        join(out, 'guide.pdf'),
        join(out, 'img', 'logo one.png'),
      ].sort(),
    );
    expect(await readFile(join(out, 'img', 'logo one.png'), 'utf8')).toBe('png');
    await expect(stat(join(out, 'other.md'))).rejects.toThrow(/ENOENT/);
  });

  it("copies a file a front-matter value points to (Starlight's hero.image.file), a locale folder deeper", async () => {
    await mkdir(join(root, 'src', 'assets'), { recursive: true });
    await writeFile(join(root, 'src', 'assets', 'houston.webp'), 'webp');
    const source = join(root, 'src', 'content', 'docs', 'index.mdx');
    const text = '---\ntitle: Home\nhero:\n  image:\n    file: ../../assets/houston.webp\n---\n\n# Home\n';
    const out = join(root, 'src', 'content', 'docs', 'es', 'index.mdx');
    // From src/content/docs/es/ the same relative path is src/content/assets/houston.webp.
    expect(await copyReferencedFiles(root, source, text, out)).toEqual([
      join(root, 'src', 'content', 'assets', 'houston.webp'),
    ]);
    expect(await readFile(join(root, 'src', 'content', 'assets', 'houston.webp'), 'utf8')).toBe('webp');
  });

  it('writes nothing when the copies are already identical, and again when the source file changed', async () => {
    expect(await copyReferencedFiles(root, page(), SOURCE, output())).toEqual([]);
    await writeFile(join(root, 'docs', 'banner.jpg'), 'jpg v2');
    expect(await copyReferencedFiles(root, page(), SOURCE, output())).toEqual([
      join(root, 'i18n', 'es', 'current', 'banner.jpg'),
    ]);
  });

  it('reads and writes nothing outside the root, and nothing when the output is in the same folder', async () => {
    const escaping = '![x](../secret.txt) ![y](../../../../../../etc/hostname)';
    // From docs/ the first is inside the root; written from i18n/es/current/ it would land in i18n/es/: fine.
    expect(await copyReferencedFiles(root, page(), escaping, output())).toEqual([
      join(root, 'i18n', 'es', 'secret.txt'),
    ]);
    const deep = join(root, 'a.md');
    expect(await copyReferencedFiles(root, deep, '![y](../etc/hostname)', join(root, 'b', 'a.md'))).toEqual(
      [],
    );
    expect(await copyReferencedFiles(root, page(), SOURCE, join(root, 'docs', 'intro.es.md'))).toEqual([]);
  });
});
