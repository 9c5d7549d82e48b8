/**
 * A server in a child process that a test lets kill itself (SIGKILL at a crash point), for the crash tests
 * of the spine and of the feature packages (each has its own script, e.g. a feature package's
 * test/crash-serve.ts). The script gets `config` as its one argument (JSON) and prints `ready <url>` once
 * listening. Node runs the script with tsx as a loader (not the tsx wrapper), so that the SIGKILL the
 * script sends itself ends the server process and `exited` reports it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll } from 'vitest';

/** The children still running; killed after the file's tests, so that a failed test leaves no server behind. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

export interface CrashServer {
  /** The base URL of the server in the child. */
  readonly url: string;
  /** Resolves with the signal that ended the child (`'SIGKILL'` after a crash point), else its exit code. */
  readonly exited: Promise<string | number | null>;
  /** All the child has written so far (stdout and stderr), for failure messages. */
  output(): string;
  readonly child: ChildProcess;
}

/**
 * Starts `script` with `config` and waits for its `ready <url>` line; rejects with what the child wrote
 * when it exits before that line.
 */
export async function startCrashServer(script: string, config: unknown): Promise<CrashServer> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions', '@glossa/source', script, JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  const exited = new Promise<string | number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(signal ?? code);
    }),
  );
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready (\S+)\n/.exec(output);
      if (ready) resolve(ready[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`${script} exited before ready:\n${output}`)));
  });
  return { url, exited, output: () => output, child };
}
