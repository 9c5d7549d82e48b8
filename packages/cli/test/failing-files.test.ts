/**
 * One bad file never aborts a run: a file that cannot be read, is not UTF-8, or that its adapter rejects
 * is reported with `file:line:column`; every other file is translated and written; the exit code is 1.
 */
import { access, chmod, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type GlossaServer, startServer } from '@glossa/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, glossa, project } from './helpers.js';

let server: GlossaServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startServer({
    dataDir: await project({}),
    port: 0,
    freePort: 0,
    host: '127.0.0.1',
    logger: false,
  });
  env = childEnv({ GLOSSA_SERVER_URL: server.url, GLOSSA_API_KEY: server.devKey });
});
afterAll(() => server.close());

/**
 * An input that exists but cannot be read. Not as root (permissions do not stop root): then a link to
 * `/proc/self/mem`, whose first page reads fail with EIO for every user.
 */
async function unreadable(path: string): Promise<void> {
  if (process.getuid?.() === 0) await symlink('/proc/self/mem', path);
  else {
    await writeFile(path, '# Hidden\n\nNot for your eyes.\n');
    await chmod(path, 0o000);
  }
}

describe('a run with failing files', () => {
  it('reports an unreadable, a non-UTF-8 and a rejected file with positions, and writes all the others', async () => {
    const cwd = await project({
      'docs/a.md': '# Start\n\nRead this first.\n\nWrite to <foo\\+@bar.example.com>\n',
      'docs/guide/b.md': 'Open the [cart](/cart) to pay.\n',
      'docs/c.mdx': '# Tabs\n\nSome text.\n\n<Tabs>\n  <TabItem label="One">\n\nText\n',
      'docs/site.html': '<p>Hello <b>world</b></p>\n',
      'strings/app.xlf':
        '<?xml version="1.0"?>\n<xliff version="2.0" srcLang="en">\n  <file id="f">\n</xliff>\n',
      'strings/en.json': '{\n  "hello": "Hello",\n  "bye": "Bye",,\n}\n',
      'strings/ok.json': '{ "save": "Save the file" }\n',
    });
    await writeFile(
      join(cwd, 'docs/latin1.md'),
      Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from('\n\nOui.\n')]),
    );
    await unreadable(join(cwd, 'docs/locked.md'));
    const args = ['translate', 'docs', 'strings/app.xlf', 'strings/en.json', 'strings/ok.json'];
    const run = await glossa([...args, '--to', 'en-XA', '--out', 'out'], { cwd, env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^failures: +0$/m);
    expect(run.stdout).toMatch(/^failed files: +5$/m);
    const failed = run.stdout.split('\n').filter((line) => /^ {2}\S+:\d+:\d+: /.test(line));
    expect(failed).toEqual([
      '  docs/c.mdx:6:3: cannot parse as markdown: Expected a closing tag for `<TabItem>` (6:3-6:24)',
      '  docs/latin1.md:1:6: not valid UTF-8 (byte 0xe9 at byte 5)',
      expect.stringMatching(/^ {2}docs\/locked\.md:1:1: cannot read: (EACCES|EIO): /),
      '  strings/app.xlf:4:8: cannot parse as xliff: 4:8: unexpected close tag.',
      expect.stringMatching(
        /^ {2}strings\/en\.json:3:16: cannot parse as i18next: .*not valid JSON: .*position 37/,
      ),
    ]);
    // Every other file is written, translated.
    const a = await readFile(join(cwd, 'out/en-XA/a.md'), 'utf8');
    expect(a).toMatch(/^# \S+/);
    expect(a).not.toContain('Read this first');
    expect(a).toContain('\nWrite to <foo\\+@bar.example.com>\n'); // that paragraph is kept as it was, and said so
    expect(run.stderr).toMatch(/docs\/a\.md:5:1: warning: .*left as is/);
    const b = await readFile(join(cwd, 'out/en-XA/guide/b.md'), 'utf8');
    expect(b).toMatch(/^\\\[\S+ \S+ \[\S+\]\(\/cart\) \S+ \S+\.\\\]\n$/); // en-XA: `[…]` around, escaped
    expect(b).not.toContain('Open the');
    expect(await readFile(join(cwd, 'out/en-XA/site.html'), 'utf8')).toMatch(/<b>[^<]+<\/b>/);
    expect(JSON.parse(await readFile(join(cwd, 'out/en-XA/ok.json'), 'utf8')).save).not.toBe('Save the file');
    // The failed files have no output.
    for (const path of ['c.mdx', 'latin1.md', 'locked.md', 'app.xlf', 'en.json'])
      await expect(access(join(cwd, 'out/en-XA', path))).rejects.toThrow(/ENOENT/);
  }, 120_000);
});
