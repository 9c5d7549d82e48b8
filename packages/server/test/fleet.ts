/**
 * A fleet for tests: `glossa-server` instances (the spine, test/serve.ts, each its own process) on one
 * PostgreSQL database and one Redis, behind a real haproxy (round robin, health checked on /ready).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './services.js';

const SERVE = join(import.meta.dirname, 'serve.ts');

/** Whether Debian's haproxy is installed. */
export const hasHaproxy = spawnSync('haproxy', ['-v']).status === 0;

export interface Instance {
  readonly name: string;
  readonly port: number;
  child: ChildProcess;
  /** Resolves with the exit code (or signal) of the current process. */
  exited: Promise<number | string | null>;
}

export interface Fleet {
  /** The balancer's base URL (paid plan). */
  readonly url: string;
  readonly instances: Instance[];
  readonly env: NodeJS.ProcessEnv;
  /** What the instances wrote (warnings and errors), prefixed by their names. */
  readonly logs: string[];
  /** haproxy's log, one line per request (httplog: timers, termination state, status). */
  readonly balancerLog: string[];
  /**
   * The index of the instance whose process is in a job row's owner id (`host/pid/random`, the lease's);
   * throws when no instance has that pid.
   */
  indexOfOwner(owner: string): number;
  /** Starts (or starts again) instance `index` and waits for its ready line. */
  start(index: number): Promise<void>;
  /** Runs `glossa-server <args>` (keys create, keys revoke) on the fleet's storage; its output. */
  run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

export interface FleetOptions {
  readonly size: number;
  /** Without: each instance on SQLite in its own data directory (a fleet of one, for comparisons). */
  readonly databaseUrl?: string;
  readonly redisUrl?: string;
  readonly devKey: string;
  /** Extra flags of every instance. */
  readonly flags?: readonly string[];
  /**
   * The script each instance runs (a `runCli` entry, see test/serve.ts): default the spine alone; a feature
   * package's fleet test passes its own, which plugs its feature in.
   */
  readonly script?: string;
}

function launch(script: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', '--conditions', '@glossa/source', script, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'glossa-fleet-'));
  const { GLOSSA_DATABASE_URL: _database, GLOSSA_REDIS_URL: _redis, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    ...(options.databaseUrl ? { GLOSSA_DATABASE_URL: options.databaseUrl } : {}),
    ...(options.redisUrl ? { GLOSSA_REDIS_URL: options.redisUrl } : {}),
    GLOSSA_API_KEY: options.devKey,
    GLOSSA_LOG_LEVEL: 'warn',
    GLOSSA_ENGINES: 'pseudo',
  };
  const script = options.script ?? SERVE;
  const instances: Instance[] = [];
  const logs: string[] = [];
  for (let index = 0; index < options.size; index++) {
    instances.push({
      name: `glossa${index + 1}`,
      port: await freePort(),
      child: undefined as unknown as ChildProcess,
      exited: Promise.resolve(null),
    });
  }
  const start = async (index: number) => {
    const instance = instances[index]!;
    const child = launch(
      script,
      [
        '--data-dir',
        join(dir, instance.name),
        '--port',
        String(instance.port),
        '--free-port',
        '0',
        ...(options.flags ?? []),
      ],
      env,
    );
    instance.child = child;
    instance.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        logs.push(`${instance.name}: ${chunk.toString()}`);
        if (output.includes('paid plan at')) resolve();
      };
      child.stderr!.on('data', onData);
      child.stdout!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${instance.name} exited with ${code}:\n${output}`)));
    });
  };
  await Promise.all(instances.map((_, index) => start(index)));

  const port = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(
    config,
    `global
  maxconn 2000
  log stdout format raw local0
defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A request refused by a stopping instance (no connection, or its 503 before any work) goes to another.
  # Never on an empty response: the request may have been served (and billed) before the connection died.
  retries 3
  option redispatch 1
  retry-on conn-failure 503
  option http-buffer-request
frontend glossa
  bind 127.0.0.1:${port}
  default_backend instances
backend instances
  balance roundrobin
  option httpchk GET /ready
  http-response set-header X-Served-By %s
  # Lenient checks (a loaded test machine answers slowly); a stopped instance refuses connections, and
  # those requests are retried on another at once, without waiting for its checks to fail.
  timeout check 5s
  default-server inter 1s fall 3 rise 1
${instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`).join('\n')}
`,
  );
  const haproxy = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let haproxyOutput = '';
  haproxy.stderr.on('data', (chunk) => (haproxyOutput += chunk));
  const balancerLog: string[] = [];
  let partial = '';
  haproxy.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    balancerLog.push(...lines);
  });
  const url = `http://127.0.0.1:${port}`;
  // Ready when every instance has passed its health checks.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const seen = new Set<string>();
    for (let attempt = 0; attempt < options.size * 3; attempt++) {
      const reply = await fetch(`${url}/health`).catch(() => undefined);
      const by = reply?.headers.get('x-served-by');
      if (by) seen.add(by);
    }
    if (seen.size === options.size) break;
    if (Date.now() > deadline || haproxy.exitCode !== null)
      throw new Error(`haproxy did not reach every instance (${[...seen]}):\n${haproxyOutput}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    logs,
    balancerLog,
    instances,
    env,
    start,
    indexOfOwner(owner) {
      const pid = Number(owner.split('/')[1]);
      const index = instances.findIndex((instance) => instance.child.pid === pid);
      if (index === -1) throw new Error(`no instance has pid ${pid} (owner ${owner})`);
      return index;
    },
    run: (args) =>
      new Promise((resolve) => {
        const child = launch(script, args, env);
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (chunk) => (stdout += chunk));
        child.stderr!.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      }),
    async stop() {
      for (const instance of instances) {
        if (instance.child.exitCode === null && instance.child.signalCode === null)
          instance.child.kill('SIGKILL');
      }
      haproxy.kill('SIGTERM');
      await Promise.all(instances.map((instance) => instance.exited));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
