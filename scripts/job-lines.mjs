#!/usr/bin/env node
/**
 * Counts the job-plumbing lines of issue 32: the files that hold the asynchronous jobs' queues, claims,
 * leases, takeover, sweeps, expiry, refunds and usage-once logic, and the feature records they run on.
 *
 *   node scripts/job-lines.mjs              today's files, in the working tree
 *   node scripts/job-lines.mjs --baseline   the issue's files at bf54f53, the commit before the runner (6078c21)
 *   node scripts/job-lines.mjs --rev <rev>  today's files at <rev> (`git show <rev>:<path>`)
 *
 * Two figures per file: `lines` (every line, as `wc -l` counts: the issue's "about 5,300") and `code`
 * (lines that are neither blank nor comments: a line starting with `//`, or inside or opening a `/* … *\/`
 * block whose rest is empty). Whole files are counted, records and all, on both sides: the baseline's
 * store and queue files held their features' records too, so today's record files split out of them are
 * counted here as well.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const BASELINE_REV = 'bf54f53';

/** The issue's list, at the commit before the runner. */
const BASELINE = [
  'packages/server-documents/src/queue.ts',
  'packages/server-documents/src/pg-queue.ts',
  'packages/server-documents/src/store.ts',
  'packages/server-documents/src/postgres.ts',
  'packages/server-documents/src/job.ts',
  'packages/server-voice/src/fleet-queue.ts',
  'packages/server-voice/src/fleet-store.ts',
  'packages/server-voice/src/jobs.ts',
  'packages/server-voice/src/translate-jobs.ts',
  'packages/server-voice/src/leftovers.ts',
  'packages/server-voice/src/usage.ts',
  'packages/server-language-tools/src/quality/pg-jobs.ts',
  'packages/server-language-tools/src/quality/sqlite-jobs.ts',
  'packages/server-language-tools/src/quality/jobs.ts',
  'packages/server-language-tools/src/quality/store.ts',
  'packages/server/src/memories/jobs.ts',
  'packages/server/src/storage/postgres-memory-jobs.ts',
  'packages/server/src/storage/pg-boss.ts',
  'packages/server/src/storage/lease.ts',
  'packages/server/src/storage/usage-operations.ts',
];

/** Today: the runner, the shared pieces, and each feature's job kind, submit and records for jobs. */
const CURRENT = [
  // The runner.
  'packages/server/src/jobs/job-backend.ts',
  'packages/server/src/jobs/job-runner.ts',
  'packages/server/src/jobs/postgres-jobs.ts',
  'packages/server/src/jobs/sqlite-jobs.ts',
  'packages/server/src/jobs/sqlite-job-files.ts',
  // The baseline's pg-boss.ts and lease.ts are in postgres-jobs.ts now (their one user), and
  // usage-operations.ts (the pruning of usage operation ids) is in job-runner.ts's sweep.
  // Memory imports and exports: one kind for both backends (its TMX as job files; the routes' view of a job),
  // PostgreSQL's writer.
  'packages/server/src/memories/jobs.ts',
  'packages/server/src/storage/postgres-memory-jobs.ts',
  // The refusal to start on the job stores of the versions before the runner (it replaced their upgrades).
  'packages/server/src/earlier-stores.ts',
  // Documents: kind (upload, chunks and result as job files, its own reservation) and service (service.ts
  // folded into document-job.ts), the document read from its job (records.ts).
  'packages/server-documents/src/document-job.ts',
  'packages/server-documents/src/records.ts',
  // Voice: both kinds and their inputs (rows.ts). Not counted since the upgrade of the job records went:
  // fleet-store.ts, which holds spoken-term collections on PostgreSQL only (the job tables' migrations are
  // no-ops kept for the count of applied versions, and nothing reads those tables).
  'packages/server-voice/src/job-support.ts',
  'packages/server-voice/src/rows.ts',
  // Quality evaluations: kind and submit (request and report are job files; no records of their own).
  'packages/server-language-tools/src/quality/jobs.ts',
  'packages/server-language-tools/src/quality/service.ts',
];

export function codeLines(text) {
  let inBlock = false;
  let code = 0;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (inBlock) {
      const end = line.indexOf('*/');
      if (end === -1) continue;
      inBlock = false;
      line = line.slice(end + 2).trim();
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      const end = line.indexOf('*/', 2);
      if (end === -1) {
        inBlock = true;
        continue;
      }
      if (line.slice(end + 2).trim() === '') continue;
    }
    code++;
  }
  return code;
}

const args = process.argv.slice(2);
const baseline = args.includes('--baseline');
const revAt = args.indexOf('--rev');
const rev = baseline ? BASELINE_REV : revAt === -1 ? undefined : args[revAt + 1];
const files = baseline ? BASELINE : CURRENT;
const read = (path) =>
  rev === undefined
    ? readFileSync(path, 'utf8')
    : execFileSync('git', ['show', `${rev}:${path}`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });

let lines = 0;
let code = 0;
console.log(`${'lines'.padStart(6)} ${'code'.padStart(6)}  file (${rev ?? 'working tree'})`);
for (const path of files) {
  let text;
  try {
    text = read(path);
  } catch {
    console.log(`${'-'.padStart(6)} ${'-'.padStart(6)}  ${path} (absent)`);
    continue;
  }
  const all = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  const counted = codeLines(text);
  lines += all;
  code += counted;
  console.log(`${String(all).padStart(6)} ${String(counted).padStart(6)}  ${path}`);
}
console.log(`${String(lines).padStart(6)} ${String(code).padStart(6)}  total, ${files.length} files`);
