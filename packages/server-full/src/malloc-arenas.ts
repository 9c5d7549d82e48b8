/**
 * `glossa-server` runs with `MALLOC_ARENA_MAX=2` on Linux with glibc (docs/deploy.md): with glibc's default of
 * up to 8 arenas per core, the memory the server's threads (glossary, import, quality) free stays in their
 * arenas, and an idle full server kept 834–908 MiB of its 1,024 MiB budget after the largest inputs (issue 31,
 * stop 45; with the variable, the heavy work ran normally). glibc reads the variable only when a process
 * starts, so the command starts itself once more with it set, unless it is set already (the user's value is
 * kept) or the C library is not glibc.
 *
 * The first process only waits: it passes SIGINT, SIGTERM and SIGHUP on to the server (which runs in a
 * process group of its own, so a terminal's Ctrl-C reaches it once, through this one) and ends as it ends,
 * with its code or its signal. Should the first process be killed outright (SIGKILL), the server learns it from
 * its IPC channel closing and kills itself the same way: no server is left behind serving the port.
 */
import { spawn } from 'node:child_process';

/** Set in the server's environment (and removed there at once): it was started by this, never again. */
const STARTED_BY_PARENT = 'GLOSSA_SERVER_ARENAS_SET';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Whether this process runs on Linux with glibc (whose arenas `MALLOC_ARENA_MAX` bounds). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)
      ?.header;
    return Boolean(header?.glibcVersionRuntime);
  } catch {
    return false;
  }
}

/**
 * What the server's environment gets added (`MALLOC_ARENA_MAX=2`) on top of `env`: nothing when `env` sets the
 * variable already (the user's value is kept) or the C library is not glibc. The one decision of the command
 * and of whatever starts the server as it does (the abuse test and bench).
 */
export function fewArenasEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return env.MALLOC_ARENA_MAX !== undefined || !onGlibc() ? {} : { MALLOC_ARENA_MAX: '2' };
}

/**
 * Starts this command again with `MALLOC_ARENA_MAX=2` when it should (see the header) and returns true: the
 * caller then does nothing more, this process exits as the new one does. Returns false in the server itself
 * (which then dies with its parent), and where nothing is to be done.
 */
export function startWithFewArenas(): boolean {
  if (process.env[STARTED_BY_PARENT] !== undefined) {
    delete process.env[STARTED_BY_PARENT];
    // The parent is gone without waiting for this process: it was killed (kill -9); so is this.
    process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
    process.channel?.unref();
    return false;
  }
  const arenas = fewArenasEnv();
  if (Object.keys(arenas).length === 0) return false;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...arenas, [STARTED_BY_PARENT]: '1' },
    detached: true,
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`glossa-server: could not start with MALLOC_ARENA_MAX=2: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const name of FORWARDED) process.off(name, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}
