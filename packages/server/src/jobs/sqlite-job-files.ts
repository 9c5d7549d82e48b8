/**
 * The files of the SQLite backend's jobs (`sqlite-jobs.ts`): plain files under `<data dir>/jobs/<job id>/<name>`,
 * not rows of `glossa.sqlite`, whose one writer a 100 MiB insert would hold for the time of the write
 * while every request's usage waits (docs/architecture.md gives the figures).
 *
 * Files are written to a staging directory `<data dir>/jobs/.<uuid>` and fsynced, off the event loop, before
 * the transaction that makes them the job's (`stage`); in it, `place` renames the directory to the job's (a
 * submit), or its files into the job's directory (an attempt's output, a release): under the attempt's fence,
 * so no other attempt changes the row in between. A crash between the files and the row leaves a directory of
 * no job, removed by the sweep (`removeOrphans`) once it is older than a submit can take.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobFileContent, JobFileStore } from './job-backend.js';

/** A job id as a directory name (never one of the staging names, which start with a dot). */
const directoryOf = (id: string) => encodeURIComponent(id).replace(/^\./, '%2E');

/**
 * Makes a directory's entries durable, in the transaction that places files (`place`): synchronous, as the
 * transaction is, but short there (2–6 ms in a bench:abuse profile) as `stage` synced the files and the
 * staging directory just before.
 */
const syncDirectorySync = (path: string) => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * The same before a transaction, off the event loop: the staging directory's fsync, after its files' (up to
 * 88 ms of the loop in a bench:abuse profile when it was synchronous).
 */
async function syncDirectory(path: string): Promise<void> {
  const directory = await open(path, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

async function writeDurably(path: string, data: JobFileContent): Promise<void> {
  const file = await open(path, 'wx', 0o600);
  try {
    if (data instanceof Uint8Array) await file.writeFile(data);
    else for await (const chunk of data) await file.write(chunk);
    await file.sync();
  } finally {
    await file.close();
  }
}

const absent = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** What `action` gives, or `otherwise` when the file or directory it reads is not there. */
async function unlessAbsent<T, U>(action: Promise<T>, otherwise: U): Promise<T | U> {
  try {
    return await action;
  } catch (error) {
    if (absent(error)) return otherwise;
    throw error;
  }
}

export function openJobFiles(root: string): JobFileStore<string> & {
  removeOrphans(stored: (ids: string[]) => Set<string>, before: number): Promise<void>;
} {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const pathOf = (id: string, ...name: string[]) => join(root, directoryOf(id), ...name);
  const staging = () => join(root, `.${randomUUID()}`);
  const list = async (id: string): Promise<string[]> =>
    (await unlessAbsent(readdir(pathOf(id)), [])).filter((name) => !name.startsWith('.'));

  return {
    async stage(files) {
      const dir = staging();
      await mkdir(dir, { mode: 0o700 });
      try {
        for (const [name, data] of Object.entries(files)) await writeDurably(join(dir, name), data);
        await syncDirectory(dir);
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      return dir;
    },
    place(id, staged, fresh) {
      const dir = pathOf(id);
      if (fresh) {
        // A directory a crashed submit of the same id left.
        rmSync(dir, { recursive: true, force: true });
        renameSync(staged, dir);
        syncDirectorySync(root);
        return [];
      }
      if (mkdirSync(dir, { recursive: true, mode: 0o700 })) syncDirectorySync(root);
      for (const name of readdirSync(staged)) renameSync(join(staged, name), join(dir, name));
      syncDirectorySync(dir);
      return [];
    },
    discard: (staged) => rm(staged, { recursive: true, force: true }),
    /**
     * Takes the job's directory away (in the transaction that deletes the job, so that a new job of the
     * same id never shares it), deleted once that commits; a kill before leaves a directory of no job.
     */
    remove(id) {
      const detached = staging();
      try {
        renameSync(pathOf(id), detached);
      } catch (error) {
        if (absent(error)) return [];
        throw error;
      }
      return [{ afterCommit: () => rm(detached, { recursive: true, force: true }) }];
    },
    // After the commit: a file deleted before it, and the transaction lost, would be lost to the job.
    prune: (id, keep) => [
      {
        async afterCommit() {
          for (const name of await list(id))
            if (!keep.includes(name)) await rm(pathOf(id, name), { force: true });
        },
      },
    ],
    read: (id, name) => unlessAbsent(readFile(pathOf(id, name)), undefined),
    stream: async (id, name) => (await unlessAbsent(open(pathOf(id, name)), undefined))?.createReadStream(),
    /** A rename to a name of this call's own, which only one call can do. */
    async take(id, name) {
      const taken = join(pathOf(id), `.${randomUUID()}`);
      const moved = rename(pathOf(id, name), taken).then(() => true);
      if (!(await unlessAbsent(moved, false))) return undefined;
      try {
        return await readFile(taken);
      } finally {
        await unlink(taken);
      }
    },
    /** Not the temporary names, which start with a dot. */
    list,
    /**
     * Removes the directories of no job (`stored` answers which ids have one) last changed before
     * `before` (ms since the epoch): staging directories and jobs' directories a crash left.
     */
    async removeOrphans(stored: (ids: string[]) => Set<string>, before: number): Promise<void> {
      const names = await readdir(root);
      const ids = names.filter((name) => !name.startsWith('.')).map((name) => decodeURIComponent(name));
      const kept = stored(ids);
      for (const name of names) {
        if (!name.startsWith('.') && kept.has(decodeURIComponent(name))) continue;
        const path = join(root, name);
        const changed = await unlessAbsent(stat(path), undefined);
        if (!changed || changed.mtimeMs >= before) continue;
        // A job inserted since the listing keeps its directory.
        if (!name.startsWith('.') && stored([decodeURIComponent(name)]).size > 0) continue;
        await rm(path, { recursive: true, force: true });
      }
    },
  };
}
