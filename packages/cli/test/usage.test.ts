/** Help and bad usage: every mistake is a clear message on stderr and exit code 2. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { childEnv, glossa, project } from './helpers.js';

describe('glossa usage', () => {
  it('prints help for the program and for each command, exit 0', async () => {
    const cwd = await project({});
    const env = childEnv();
    const [top, translate, check, xliff] = await Promise.all([
      glossa(['--help'], { cwd, env }),
      glossa(['translate', '--help'], { cwd, env }),
      glossa(['check', '--help'], { cwd, env }),
      glossa(['xliff', '--help'], { cwd, env }),
    ]);
    expect(top.code).toBe(0);
    for (const command of [
      'init',
      'translate',
      'estimate',
      'status',
      'check',
      'sync',
      'usage',
      'serve',
      'xliff',
    ]) {
      expect(top.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
    expect(translate.code).toBe(0);
    expect(translate.stdout).toContain('--to <locales>');
    expect(translate.stdout).toContain('--out <dir>');
    expect(check.stdout).toContain('--fail-on <severity>');
    expect(xliff.stdout).toContain('glossa xliff import xliff/es.xlf docs');
  }, 120_000);

  it('exits 2 with a message for each kind of misuse', async () => {
    const cwd = await project({
      'docs/a.md': '# Hello\n',
      'docs/b.txt': 'not a format',
      'bad/glossa.config.json': '{"targetLocales": "es", "cache": {"store": "disk"}}',
      'bad/docs/a.md': '# Hi\n',
    });
    const env = childEnv();
    const cases: [string[], RegExp][] = [
      [[], /Usage:/],
      [['transalte', 'docs'], /unknown command 'transalte'/],
      [['translate', 'docs', '--to', 'es', '--frobnicate'], /Unknown option `--frobnicate`/],
      [['translate', 'docs', '--to'], /option `--to <locales>` value is missing/],
      [['translate', 'docs', '--to', 'es,xx-nope'], /--to: unknown language code 'xx-nope'/],
      [['translate', 'docs'], /no target locales: pass --to/],
      [['translate', 'nowhere', '--to', 'es'], /no such file or folder: nowhere/],
      [['translate', 'docs/b.txt', '--to', 'es'], /no adapter for .*b\.txt: supported extensions are \.md/],
      [['translate', 'docs/*.xlf', '--to', 'es'], /no input files matched docs\/\*\.xlf/],
      [
        ['translate', 'bad/docs', '--to', 'es'],
        /glossa\.config\.json: `cache\.store` must be "file", "memory" or "redis", got string "disk"/,
      ],
      [
        ['check', 'docs', '--to', 'es', '--fail-on', 'awful'],
        /--fail-on: expected one of minor, major, critical, got 'awful'/,
      ],
      [['xliff', 'merge'], /xliff: expected 'export' or 'import', got 'merge'/],
      [['xliff', 'import'], /xliff import: expected the XLIFF file to import/],
      [['serve', '--port', '70000'], /--port: expected a port number, got '70000'/],
    ];
    // The real program (a child process) for the first two; the others through the same `runCli` in this
    // process (a child process each cost ~10 s of CPU: 14 of them ran into the timeout on a loaded machine).
    const inProcess = async (args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t), isTTY: false };
      const code = await runCli(args, { io, cwd, env });
      return { code, stdout: out.join('\n'), stderr: err.join('\n') };
    };
    const runs = await Promise.all(
      cases.map(([args], i) => (i < 2 ? glossa(args, { cwd, env }) : inProcess(args))),
    );
    runs.forEach((run, i) => {
      const [args, message] = cases[i]!;
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stdout + run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    });
  }, 240_000);
});
