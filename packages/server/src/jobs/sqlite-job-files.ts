/**
 * The files of the SQLite backend's jobs (`sqlite-jobs.ts`): plain files under `<data dir>/jobs/<job id>/<name>`,
 * not rows of `glossa.sqlite`, whose one writer a 100 MiB insert would hold for the time of the write
 * while every request's usage waits (docs/architecture.md gives the figures).
 *
 * A submit's files are written to a staging directory and fsynced before the job's row is inserted; the
 * insert's transaction renames the directory to the job's (`place`). A file an attempt writes goes to a
 * temporary name, is fsynced, then renamed over the job's file under the attempt's fence (`placeFile`, in
 * the fence's transaction: no other attempt can change the row in between). A crash between the files and
 * the row leaves a directory without a job, removed by the sweep (`removeOrphans`) once it is older than a
 * submit can take.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobFileContent, JobFiles } from './job-backend.js';

/** A job id as a directory name (never one of the staging names, which start with a dot). */
const directoryOf = (id: string) => encodeURIComponent(id).replace(/^\./, '%2E');

const syncDirectory = (path: string) => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

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

export function openJobFiles(root: string) {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const pathOf = (id: string, name?: string) =>
    name === undefined ? join(root, directoryOf(id)) : join(root, directoryOf(id), name);
  const staging = () => join(root, `.${randomUUID()}`);

  return {
    /** Writes a submit's files to a new staging directory, fsynced; its path (undefined: no files). */
    async stage(files: JobFiles | undefined): Promise<string | undefined> {
      const entries = Object.entries(files ?? {});
      if (entries.length === 0) return undefined;
      const dir = staging();
      await mkdir(dir, { mode: 0o700 });
      try {
        for (const [name, data] of entries) await writeDurably(join(dir, name), data);
        syncDirectory(dir);
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      return dir;
    },
    /** Makes a staged directory the job's (synchronously: in the insert's transaction), durably. */
    place(staged: string, id: string): void {
      const dir = pathOf(id);
      // A directory a crashed submit of the same id left.
      rmSync(dir, { recursive: true, force: true });
      renameSync(staged, dir);
      syncDirectory(root);
    },
    /** Moves a staged directory's files into the job's directory (synchronously: in a transaction), durably. */
    merge(staged: string, id: string): void {
      const dir = pathOf(id);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      for (const name of readdirSync(staged)) renameSync(join(staged, name), join(dir, name));
      rmSync(staged, { recursive: true, force: true });
      syncDirectory(dir);
    },
    discard: (staged: string | undefined) =>
      staged ? rm(staged, { recursive: true, force: true }) : Promise.resolve(),
    read: (id: string, name: string): Promise<Uint8Array | undefined> =>
      unlessAbsent(readFile(pathOf(id, name)), undefined),
    stream: async (id: string, name: string): Promise<AsyncIterable<Uint8Array> | undefined> =>
      (await unlessAbsent(open(pathOf(id, name)), undefined))?.createReadStream(),
    /** Writes an attempt's file under a temporary name in the job's directory, fsynced; its path. */
    async stageFile(id: string, data: Uint8Array): Promise<string> {
      await mkdir(pathOf(id), { recursive: true, mode: 0o700 });
      const temporary = join(pathOf(id), `.${randomUUID()}`);
      await writeDurably(temporary, data);
      return temporary;
    },
    /** Renames a staged file over the job's file `name` (synchronously: under the attempt's fence). */
    placeFile(staged: string, id: string, name: string): void {
      renameSync(staged, pathOf(id, name));
      syncDirectory(pathOf(id));
    },
    /** Removes a file and returns it: a rename to a name of this call's own, which only one call can do. */
    async take(id: string, name: string): Promise<Uint8Array | undefined> {
      const taken = join(pathOf(id), `.${randomUUID()}`);
      try {
        await rename(pathOf(id, name), taken);
      } catch (error) {
        if (absent(error)) return undefined;
        throw error;
      }
      try {
        return await readFile(taken);
      } finally {
        await unlink(taken);
      }
    },
    /** The names of the job's files (not the temporary ones, which start with a dot). */
    async list(id: string): Promise<string[]> {
      return (await unlessAbsent(readdir(pathOf(id)), [])).filter((name) => !name.startsWith('.'));
    },
    /** Deletes the job's files but those named in `keep`. */
    async prune(id: string, keep: readonly string[]): Promise<void> {
      for (const name of await this.list(id))
        if (!keep.includes(name)) await rm(pathOf(id, name), { force: true });
    },
    /**
     * Takes the job's directory away (synchronously: in the transaction that deletes the job, so that a new
     * job of the same id never shares it) and deletes it; a kill before the deletion leaves a directory of no
     * job, which the sweep removes.
     */
    detach(id: string): () => Promise<void> {
      const detached = staging();
      try {
        renameSync(pathOf(id), detached);
      } catch (error) {
        if (absent(error)) return async () => {};
        throw error;
      }
      return () => rm(detached, { recursive: true, force: true });
    },
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
