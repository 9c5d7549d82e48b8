/** Runs the real `glossa` bin as a child process, in a temporary project, against a real server. */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const bin = resolve(import.meta.dirname, '../src/bin.ts');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a child: no service or key from the outside unless given. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { GLOSSA_SERVER_URL: _u, GLOSSA_API_KEY: _k, GLOSSA_DATA_DIR: _d, ...rest } = process.env;
  return { ...rest, ...extra };
}

export function glossa(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, '--conditions', '@glossa/source', bin, ...args],
      { cwd: options.cwd, env: options.env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A temporary project with `files` (path → content). */
export async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'glossa-cli-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}
