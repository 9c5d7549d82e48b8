/**
 * The document queue of a fleet: pg-boss (10, on the server's PostgreSQL) delivers each document's job to
 * one worker of one instance, at most `concurrency` at a time per instance. The rows and bytes live in
 * `documents` (postgres.ts); a job's row and its pg-boss job are written in one transaction.
 *
 * An instance that dies (SIGKILL, a lost machine) must not take its documents with it, and a job must not be
 * held for pg-boss's expiry (which has to be long: a document may legitimately translate for many minutes).
 * So each instance holds a lease: a session-level advisory lock on its own connection, keyed by an owner
 * id (`host/pid/random`) written on the rows it translates (the spine's `createLease`). PostgreSQL
 * releases the lock when that connection ends, so every few seconds each instance looks for owners of
 * translating rows whose lock it can take: those are dead, and their documents are queued again (with a
 * new job, in the same transaction), and taken by another instance. Each claim increments the row's
 * attempt, and finishing or failing is conditional on it: a document is finished once and a failure
 * refunds once (the failure marks the refund owed on the row; it is applied by its operation id, and an
 * instance that dies between the two leaves it to the lease checks: job.ts). Billing happened at upload (or, for a format read
 * by the job, is recorded on the row before translation), so a job run again never bills again.
 */
import {
  createBossQueue,
  createLease,
  repeatEvery,
  type ServiceContext,
  startBossWorkers,
} from '@glossa/server/feature';
import PgBoss from 'pg-boss';
import type { DocumentFormats } from './formats/index.js';
import {
  Closing,
  crashPoints,
  failureOf,
  type OwedRefund,
  pruneOperations,
  reserveCharacters,
  settleRefund,
  translateDocument,
} from './job.js';
import type { ClaimedDocument, Enqueue, PostgresDocuments } from './postgres.js';
import { type DocumentQueue, secondsLeft } from './queue.js';

/** The pg-boss queue of document jobs. */
export const DOCUMENT_JOB_QUEUE = 'glossa-documents';
/** First key of the owners' advisory locks (the second is a hash of the owner id). */
const LEASE_LOCK = 7_117_020;

interface JobData {
  readonly documentId: string;
  readonly accountId: string;
}

export interface PgDocumentQueueOptions {
  readonly formats: DocumentFormats;
  readonly concurrency: number;
  /** How often expired documents are swept, in ms (default 60 s). */
  readonly sweepIntervalMs?: number;
  /** How often dead instances' documents are looked for, in ms (default 5 s). */
  readonly leaseCheckMs?: number;
  /**
   * How long a queued document may have no pg-boss job about to run it before it gets a new one, in ms
   * (default 60 s).
   */
  readonly orphanAfterMs?: number;
  /** How often an idle worker asks pg-boss for a job, in seconds (default 2). */
  readonly pollingIntervalSeconds?: number;
  /**
   * pg-boss's expiry of an active job, in seconds (default 3600): past it, pg-boss gives the job to another
   * worker, which finds the row still translating under a live lease and leaves it. The lease, not this,
   * is what takes over a dead instance's documents.
   */
  readonly jobTimeoutSeconds?: number;
  readonly logError?: (error: unknown, documentId: string) => void;
  readonly logWarning?: (message: string, detail?: Record<string, unknown>) => void;
}

/** Starts pg-boss (its schema `pgboss`, migrated by pg-boss itself) and the queue's pg-boss queue. */
export async function startBoss(
  url: string,
  options: { jobTimeoutSeconds?: number; poolSize?: number; onError?: (error: unknown) => void },
) {
  const boss = new PgBoss({
    connectionString: url,
    max: options.poolSize ?? 4,
    application_name: 'glossa-documents',
    // No cron here; maintenance (expiry of jobs, archive) runs on one instance at a time.
    schedule: false,
    maintenanceIntervalSeconds: 30,
  });
  // pg-boss reports failed polls and maintenance here (a database restart); it retries by itself.
  boss.on('error', (error) => options.onError?.(error));
  await boss.start();
  await createBossQueue(boss, DOCUMENT_JOB_QUEUE, { expireInSeconds: options.jobTimeoutSeconds ?? 3600 });
  const enqueue: Enqueue = async (db, document) => {
    const data: JobData = { documentId: document.id, accountId: document.accountId };
    await boss.send(DOCUMENT_JOB_QUEUE, data, { db });
  };
  return { boss, enqueue };
}

export async function createPgDocumentQueue(
  url: string,
  boss: PgBoss,
  documents: PostgresDocuments,
  context: ServiceContext,
  options: PgDocumentQueueOptions,
): Promise<DocumentQueue> {
  const concurrency = options.concurrency;
  /** Documents this instance translates now (claimed or about to be). */
  const running = new Set<string>();
  const jobs = new Set<Promise<void>>();
  let closed = false;

  // The owner id says which process translates a document (for an operator).
  const lease = createLease(url, {
    lockKey: LEASE_LOCK,
    applicationName: 'glossa-documents-lease',
    onLost: (error) => options.logWarning?.('document lease connection lost', { err: error }),
  });
  const owner = lease.owner;
  await lease.hold();

  async function run(job: JobData): Promise<void> {
    const { documentId, accountId } = job;
    if (closed) {
      // Fetched as this instance closes: a new job for another instance (a duplicate is harmless).
      await boss.send(DOCUMENT_JOB_QUEUE, job);
      return;
    }
    await lease.hold();
    running.add(documentId);
    let claimed: { document: ClaimedDocument; bytes: Buffer } | undefined;
    try {
      claimed = await documents.claim(accountId, documentId, owner);
      // Not queued: done, failed, expired, or translated by a live instance (a duplicate job).
      if (!claimed) return;
      await translate(claimed.document, claimed.bytes);
    } finally {
      running.delete(documentId);
    }
  }

  async function translate(document: ClaimedDocument, bytes: Buffer): Promise<void> {
    let lastProgress = 0;
    try {
      const result = await translateDocument(document, bytes, context, options.formats, {
        onProgress: (done) => {
          // At most one write a second (another instance answers the polls from the row).
          if (Date.now() - lastProgress < 1000 && done < 1) return;
          lastProgress = Date.now();
          documents.setProgress(document, done).catch(() => {});
        },
        checkpoint: () => {
          if (closed) throw new Closing();
        },
        // Chunks an earlier attempt translated (an instance that died or stopped) are not translated again.
        chunks: {
          load: () => documents.loadChunks(document),
          save: (digest, outputs) => documents.saveChunk(document, digest, outputs),
        },
        async reserve(units, caller) {
          const day = await reserveCharacters(context, document, caller, units);
          if (day === undefined) return false;
          // Taken over meanwhile: the reservation is the document's (once, job.ts), and the attempt that
          // holds the document records it on the row; this one stops.
          if (!(await documents.setBilled(document, units, day))) throw new Closing();
          return true;
        },
      });
      await documents.finish(document, result);
    } catch (error) {
      if (error instanceof Closing) {
        // Queued again with a new job, for another instance (or this one, restarted).
        if (closed) await documents.requeue(document);
        return;
      }
      const failure = failureOf(error);
      if (failure.unexpected) options.logError?.(error, document.id);
      // The row says the refund is owed, then it is applied (job.ts); a crash between the two leaves it to
      // the lease checks of every instance.
      const owed = await documents.fail(document, failure.message);
      if (!owed) return;
      crashPoints.afterFail?.(document.id);
      await settle(owed).catch((failed) => options.logError?.(failed, document.id));
    }
  }

  const workers = await startBossWorkers<JobData>(
    boss,
    DOCUMENT_JOB_QUEUE,
    { concurrency, pollingIntervalSeconds: options.pollingIntervalSeconds },
    async (job) => {
      const work = run(job);
      jobs.add(work);
      try {
        await work;
      } finally {
        jobs.delete(work);
      }
    },
  );

  const settle = (refund: OwedRefund) => settleRefund(context, refund, (id) => documents.refunded(id));
  /** Applies the refunds that instances which died (or whose storage failed) left owed; each once. */
  async function settleOwed(): Promise<void> {
    for (const refund of await documents.owedRefunds()) await settle(refund);
  }

  /**
   * Dead instances' documents back in the queue, this one's orphans too, expired ones removed, refunds
   * left owed applied.
   */
  async function checkLeases(): Promise<void> {
    await lease.hold();
    for (const other of await documents.owners(owner)) {
      const taken = await documents.takeOver(other, (client) => lease.isFree(client, other));
      if (taken > 0)
        options.logWarning?.('documents of a stopped instance queued again', { documents: taken });
    }
    await documents.orphans(owner, [...running]);
    const lost = await documents.lost(DOCUMENT_JOB_QUEUE, options.orphanAfterMs ?? 60_000);
    if (lost > 0) {
      options.logWarning?.('queued documents without a queue job queued again', { documents: lost });
      workers.notify();
    }
    await settleOwed();
  }

  const stopLeaseChecks = repeatEvery(options.leaseCheckMs ?? 5000, checkLeases, (error) =>
    options.logWarning?.('document lease check failed', { err: error }),
  );
  /** Expired documents removed, then the usage operation ids nothing can apply again (job.ts). */
  const sweep = async () => {
    await documents.sweep().catch(() => 0);
    try {
      await pruneOperations(context, await documents.oldestActive());
    } catch (error) {
      options.logWarning?.('sweep of document usage operations failed', { err: error });
    }
  };
  await settleOwed().catch((error) => options.logWarning?.('owed document refunds failed', { err: error }));
  await sweep();
  const stopSweeps = repeatEvery(options.sweepIntervalMs ?? 60_000, sweep, () => {});

  return {
    notify() {
      // Wake this instance's idle workers (the job may as well be taken by another instance).
      workers.notify();
    },
    async secondsRemaining(document) {
      if (document.status === 'translating') return secondsLeft(document, document.progress ?? 0);
      const ahead = await documents.store.queuedAhead(document.id);
      return Math.ceil((ahead.ms / concurrency + document.estimateMs) / 1000);
    },
    async close() {
      closed = true;
      stopLeaseChecks();
      stopSweeps();
      await workers.stop();
      // Running jobs stop at their next chunk and queue their documents again.
      await Promise.allSettled([...jobs]);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
      await lease.release();
    },
  };
}
