import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FULL_MEMORY_BUDGET_MB, withFullServerDefaults } from '../src/index.js';

const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const env = { ...process.env, GLOSSA_API_KEY: '' };

/** The paid plan's URL once the server says it serves, and its stderr until then. */
function served(child: ChildProcess): Promise<{ url: string; stderr: string }> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
      const match = /paid plan at (http:\/\/127\.0\.0\.1:\d+), free plan at/.exec(stderr);
      if (match) resolve({ url: match[1]!, stderr });
    });
    child.on('close', () => reject(new Error(stderr)));
  });
}

/** /proc/<pid>/stat: the parent's pid and the state (Z: exited, not yet reaped). */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state! };
  } catch {
    return undefined;
  }
}
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const ppid = /^\d+$/.test(name) ? statOf(Number(name))?.ppid : undefined;
    if (ppid !== undefined) parents.set(Number(name), ppid);
  }
  const found: number[] = [];
  for (const [pid] of parents) {
    for (let up = parents.get(pid); up !== undefined; up = parents.get(up)) {
      if (up === root) {
        found.push(pid);
        break;
      }
    }
  }
  return found;
}
const environOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
};
const onGlibc =
  process.platform === 'linux' &&
  Boolean(
    (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime,
  );

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, ['--conditions', '@glossa/source', bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('glossa-server bin', () => {
  it('keys create prints the account and the key once; serve accepts it; SIGTERM stops it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-cli-'));
    dirs.push(dataDir);
    const created = await run([
      'keys',
      'create',
      '--plan',
      'paid',
      '--admin',
      '--character-limit',
      '5000',
      '--data-dir',
      dataDir,
    ]);
    expect(created.code).toBe(0);
    const [, accountId] = /^account: ([0-9a-f-]{36})$/m.exec(created.stdout) ?? [];
    const [, key] = /^key: (\S+)$/m.exec(created.stdout) ?? [];
    expect(accountId).toBeDefined();
    expect(key).toMatch(/^[\w-]{43}$/);
    expect(created.stderr).toContain('shown only this once');

    const child = spawn(
      tsx,
      [
        '--conditions',
        '@glossa/source',
        bin,
        '--data-dir',
        dataDir,
        '--port',
        '0',
        '--free-port',
        '0',
        '--log-level',
        'silent',
      ],
      { env },
    );
    children.push(child);
    const { url, stderr } = await served(child);
    expect(stderr).toMatch(/local development account created; its key \(shown once\): \S+/);
    const usage = await fetch(`${url}/v2/usage`, { headers: { authorization: `Service-Auth-Key ${key}` } });
    expect(usage.status).toBe(200);
    expect(((await usage.json()) as { character_limit: number }).character_limit).toBe(5000);
    const analytics = await fetch(
      `${url}/v2/admin/analytics/custom-tags?start_date=2025-01-01&end_date=2025-01-02`,
      {
        headers: { authorization: `Service-Auth-Key ${key}` },
      },
    );
    expect(analytics.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it.skipIf(!onGlibc)(
    'serves with MALLOC_ARENA_MAX=2 (the command starts itself once more with it); a kill -9 of the command leaves no server behind',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'glossa-cli-'));
      dirs.push(dataDir);
      const withoutArenas: NodeJS.ProcessEnv = { ...env };
      delete withoutArenas.MALLOC_ARENA_MAX;
      const child = spawn(
        tsx,
        ['--conditions', '@glossa/source', bin, '--data-dir', dataDir, '--port', '0', '--free-port', '0'],
        { env: withoutArenas },
      );
      children.push(child);
      const { url } = await served(child);
      // The server: the process under the command whose environment has the variable set by it (not the
      // server's own children, which inherit it).
      const withArenas = descendantsOf(child.pid!).filter((pid) =>
        environOf(pid).includes('MALLOC_ARENA_MAX=2'),
      );
      const [server, ...others] = withArenas.filter((pid) => !withArenas.includes(statOf(pid)?.ppid ?? 0));
      expect(others).toEqual([]);
      expect(server).toBeDefined();
      // It answers (/ready may still say 503 while the language tools load).
      await expect(fetch(`${url}/ready`)).resolves.toBeInstanceOf(Response);
      // Killed outright, the command cannot pass anything on: the server ends with it.
      process.kill(statOf(server!)!.ppid, 'SIGKILL');
      while (statOf(server!) !== undefined && statOf(server!)!.state !== 'Z') {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await expect(fetch(`${url}/ready`)).rejects.toThrow();
    },
    60_000,
  );

  it('keys revoke: revoked even when Redis cannot be told (it says so); an unknown key is exit 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'glossa-cli-'));
    dirs.push(dataDir);
    const created = await run(['keys', 'create', '--plan', 'free', '--data-dir', dataDir]);
    const [, key] = /^key: (\S+)$/m.exec(created.stdout) ?? [];
    // Port 1 on loopback: nothing listens there.
    const revoked = await run([
      'keys',
      'revoke',
      '--key',
      key!,
      '--data-dir',
      dataDir,
      '--redis-url',
      'redis://127.0.0.1:1',
    ]);
    expect(revoked.stdout, revoked.stderr).toBe('revoked\n');
    expect(revoked.stderr).toMatch(/the key is revoked, but Redis could not tell the instances/);
    expect(revoked.code).toBe(0);
    const again = await run(['keys', 'revoke', '--key', key!, '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no such key');
  }, 60_000);

  it('misuse prints the problem and the usage, exit 2', async () => {
    const result = await run(['keys', 'create', '--plan', 'gold']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("glossa-server: --plan: expected 'paid' or 'free', got 'gold'");
    expect(result.stderr).toContain('Usage:');
    expect((await run(['--port', 'abc'])).stderr).toContain("--port: expected a whole number, got 'abc'");
    // A feature's setting reaches the feature, which checks it before the server starts.
    const quality = await run(['--quality-timeout-seconds', '5000', '--port', '0', '--free-port', '0']);
    expect(quality.code).not.toBe(0);
    expect(quality.stderr).toContain(
      'quality.evaluationTimeoutSeconds: expected a number from 0.1 to 899, got 5000',
    );
  }, 60_000);
});

describe('the full server default memory budget', () => {
  it('is added unless a flag, the environment or the config file sets one', () => {
    const added = ['--port', '0', '--memory-budget-mb', String(FULL_MEMORY_BUDGET_MB)];
    expect(withFullServerDefaults(['--port', '0'], {})).toEqual(added);
    expect(withFullServerDefaults(['--memory-budget-mb', '900'], {})).toEqual(['--memory-budget-mb', '900']);
    expect(withFullServerDefaults(['--memory-budget-mb=900'], {})).toEqual(['--memory-budget-mb=900']);
    expect(withFullServerDefaults([], { GLOSSA_MEMORY_BUDGET_MB: '900' })).toEqual([]);
    expect(withFullServerDefaults(['keys', 'create'], {})).toEqual(['keys', 'create']);
    const dir = mkdtempSync(join(tmpdir(), 'glossa-cli-'));
    try {
      const set = join(dir, 'set.json');
      const unset = join(dir, 'unset.json');
      writeFileSync(set, JSON.stringify({ memoryBudgetMb: 900 }));
      writeFileSync(unset, JSON.stringify({ port: 0 }));
      expect(withFullServerDefaults(['--config', set], {})).toEqual(['--config', set]);
      expect(withFullServerDefaults([], { GLOSSA_CONFIG: set })).toEqual([]);
      expect(withFullServerDefaults(['--config', unset], {})).toEqual([
        '--config',
        unset,
        '--memory-budget-mb',
        String(FULL_MEMORY_BUDGET_MB),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
