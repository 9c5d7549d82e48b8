/**
 * Files of voice jobs that a killed process (SIGKILL, a lost machine) left in `<dataDir>/voice-jobs/`,
 * removed without touching those of live jobs. A job's files are removed by the job itself when it ends;
 * a process killed in between leaves them:
 * - embedded (`voice.sqlite`): `<id>`, the audio of a `/v3/voice/jobs` job, and `<id>.source`, the audio
 *   of a `/v1/jobs/voice/translate` job, left when the process died after the job's finish was written
 *   (the file of a job that is still waiting or processing is live: the job runs again at the start);
 *   `<id>.result-<n>` are a translation job's results, kept as long as its row;
 * - on a fleet: `<id>.attempt-<n>`, the audio of attempt n written for ffmpeg (the audio itself is in
 *   PostgreSQL), left when the process died mid-decode. Live only while the row is processing under
 *   that attempt: once a lease check took the job over (a new attempt) or it ended, the file is a
 *   leftover. The test is exact whichever instance wrote the file (instances may share a directory).
 * Embedded, the sweep runs once at the start (before the job loops; only a process that is gone leaves
 * files behind); on a fleet, at the start and at each lease check (after a takeover, the dead attempt's
 * file goes within one check). A file whose job has no row is removed only when older than
 * `ORPHAN_AGE_MS`: an upload writes its file before its row. Names of no job's pattern are left alone.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type pg from 'pg';

/** Age past which a file whose job has no row is a leftover (an upload writes the file, then the row). */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const NAME = new RegExp(`^(${UUID})(?:\\.(source|result-\\d+|attempt-(\\d+)))?$`);

/** A job's file in the directory: its job id, what it is and (an attempt's) the attempt. */
interface JobFile {
  readonly name: string;
  readonly id: string;
  readonly kind: 'upload' | 'source' | 'result' | 'attempt';
  readonly attempt?: number;
}

function jobFiles(dir: string): JobFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: JobFile[] = [];
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match) continue;
    const [, id, suffix, attempt] = match;
    const kind =
      suffix === undefined ? 'upload' : suffix === 'source' ? 'source' : attempt ? 'attempt' : 'result';
    files.push({ name, id: id!, kind, ...(attempt ? { attempt: Number(attempt) } : {}) });
  }
  return files;
}

/** Removes the file; false when it was younger than `ORPHAN_AGE_MS` and `onlyIfOld` (or gone already). */
function remove(dir: string, file: JobFile, onlyIfOld: boolean, now: number): boolean {
  const path = join(dir, file.name);
  if (onlyIfOld) {
    try {
      if (now - statSync(path).mtimeMs < ORPHAN_AGE_MS) return false;
    } catch {
      return false;
    }
  }
  rmSync(path, { force: true });
  return true;
}

/** Embedded: removes the leftovers of `voice.sqlite`'s jobs from `dir`; the names removed. */
export function sweepSqliteLeftovers(db: Database.Database, dir: string, now = Date.now()): string[] {
  const voiceJob = db.prepare('SELECT status FROM voice_jobs WHERE id = ?');
  const translateJob = db.prepare('SELECT status FROM voice_translate_jobs WHERE id = ?');
  const removed: string[] = [];
  for (const file of jobFiles(dir)) {
    // A fleet's files are its instances' (not this embedded server's).
    if (file.kind === 'attempt') continue;
    const row = (file.kind === 'upload' ? voiceJob : translateJob).get(file.id) as
      | { status: string }
      | undefined;
    const live =
      file.kind === 'upload'
        ? row?.status === 'queued' || row?.status === 'processing'
        : file.kind === 'source'
          ? row !== undefined && row.status !== 'done'
          : row !== undefined;
    if (!live && remove(dir, file, row === undefined, now)) removed.push(file.name);
  }
  return removed;
}

/** A fleet: removes the attempt files in `dir` whose attempt no longer holds its job; the names removed. */
export async function sweepFleetLeftovers(pool: pg.Pool, dir: string, now = Date.now()): Promise<string[]> {
  const attempts = jobFiles(dir).filter((file) => file.kind === 'attempt');
  if (attempts.length === 0) return [];
  const { rows } = await pool.query<{ id: string; attempt: number }>(
    `SELECT id, attempt FROM voice_jobs WHERE id = ANY($1::text[]) AND status = 'processing'
     UNION ALL SELECT id, attempt FROM voice_translate_jobs WHERE id = ANY($1::text[]) AND status = 'processing'`,
    [attempts.map((file) => file.id)],
  );
  const held = new Set(rows.map((row) => `${row.id}/${row.attempt}`));
  const removed: string[] = [];
  for (const file of attempts) {
    // Written after its attempt's claim: not held (taken over, ended, or no row) is a leftover.
    if (!held.has(`${file.id}/${file.attempt}`) && remove(dir, file, false, now)) removed.push(file.name);
  }
  return removed;
}
