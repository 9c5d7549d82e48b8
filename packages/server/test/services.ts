/**
 * Real PostgreSQL and Redis servers for the tests, started in temporary directories on free loopback ports
 * (Debian's `postgresql` and `redis-server`, scripts/apt-packages.txt) and stopped with the test process.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const POSTGRES_BIN = (() => {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version && join(root, version, 'bin');
})();

/** Whether Debian's PostgreSQL server is installed. */
export const hasPostgres = POSTGRES_BIN !== undefined;
/** Whether Debian's `redis-server` is installed. */
export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
/** Set (to anything) to run the storage-touching suites on PostgreSQL instead of SQLite. */
export const onPostgres = Boolean(process.env.GLOSSA_TEST_POSTGRES);

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 30 s:\n${seen}`)), 30_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code}:\n${seen}`));
    });
  });
}

/** PostgreSQL refuses to run as root: as root, its processes run as the `postgres` user. */
function postgresUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout);
  const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout);
  return { uid, gid };
}

export interface PostgresCluster {
  readonly port: number;
  /** A new, empty database on the cluster; its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a throwaway PostgreSQL cluster (initdb, trust on loopback, no fsync) on a free port. */
export async function startPostgres(): Promise<PostgresCluster> {
  if (!POSTGRES_BIN) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'glossa-pg-'));
  chmodSync(dir, 0o700);
  const user = postgresUser();
  if ('uid' in user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const init = spawnSync(
    join(POSTGRES_BIN, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C'],
    { encoding: 'utf8', cwd: dir, ...user },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}${init.stdout}`);
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
  ];
  const child = spawn(join(POSTGRES_BIN, 'postgres'), args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: dir,
    ...user,
  });
  // The cluster never outlives the test process, even when a file did not stop it.
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  await waitForLine(child, /ready to accept connections/, 'postgres');
  let count = 0;
  const admin = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`, max: 1 });
  // pool.end() does not wait for the socket to close: the fast shutdown's "terminating connection" (57P01)
  // can still reach the ended client, and without a listener it is an uncaught exception.
  admin.on('error', () => {});
  return {
    port,
    async createDatabase() {
      const name = `glossa_${process.pid}_${++count}`;
      await admin.query(`CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.off('exit', onExit);
      await admin.end();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGINT: PostgreSQL's fast shutdown.
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let shared: Promise<PostgresCluster> | undefined;

/** One cluster for the whole test process (a file's tests share it; each server gets its own database). */
export function sharedPostgres(): Promise<PostgresCluster> {
  shared ??= startPostgres();
  return shared;
}

/** Stops the process-wide cluster, when one was started. */
export async function stopSharedPostgres(): Promise<void> {
  const cluster = shared;
  shared = undefined;
  if (cluster) await (await cluster).stop();
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts a real, throwaway redis-server on a free loopback port (no persistence). */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForLine(child, /Ready to accept connections/, 'redis-server');
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
