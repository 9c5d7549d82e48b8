/**
 * Documents on the server's job runner: fairness between accounts (one account's many large documents do
 * not delay another's small one by more than the job running when it arrived: the claim order, not a
 * timing), and `seconds_remaining` of a translating document from the throughput its job measured (its
 * checkpoint), not from the upload's estimate. SQLite (or PostgreSQL with GLOSSA_TEST_POSTGRES), real Apertium.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { secondsRemaining } from '../src/document-job.js';
import { download, status, upload, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';
import { documentJobs } from './storage-probe.js';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((t) => t.close())));

const FIELDS = { target_lang: 'ES', source_lang: 'EN' };
const large = (doc: number) =>
  Array.from({ length: 300 }, (_, i) => `The red car ${doc}-${i} is fast. The house ${i} is big.\n`).join('');

describe('documents on the job runner', () => {
  it("one account's ten large documents do not delay another account's small one past the job running when it arrived", async () => {
    // One document at a time: the order of the claims is the whole story.
    const t = await startTestServer({ documents: { concurrency: 1 }, jobs: { concurrency: 1 } });
    servers.push(t);
    const other = await t.server.createAccount({ plan: 'paid' });
    const alice = [];
    for (let doc = 0; doc < 10; doc++) alice.push((await upload(t, `a${doc}.txt`, large(doc), FIELDS)).data);
    const bob = (await upload(t, 'b.txt', 'The house is big.', FIELDS, { key: other.key })).data as {
      document_id: string;
      document_key: string;
    };
    for (let until = Date.now() + 120_000; ; ) {
      const reply = await status(t, bob, other.key);
      expect(reply.status).toBe(200);
      if (reply.data.status === 'done') break;
      expect(reply.data.status).not.toBe('error');
      if (Date.now() > until) throw new Error(`Bob's document still ${reply.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const ids of alice) expect((await waitDone(t, ids, 300_000)).status).toBe('done');
    const rows = await documentJobs<{ id: string; created_at: string; claimed_at: string }>(
      t,
      'id, created_at, claimed_at',
      'claimed_at',
    );
    expect(rows).toHaveLength(11);
    const bobRow = rows.find((row) => row.id === bob.document_id)!;
    // Claimed after Bob submitted: his first. What ran before him was running when he arrived (one job:
    // concurrency 1), however many of Alice's were still waiting.
    const after = rows.filter((row) => row.claimed_at >= bobRow.created_at);
    expect(after[0]!.id).toBe(bob.document_id);
    const waiting = rows.filter((row) => row.id !== bob.document_id && row.claimed_at > bobRow.claimed_at);
    console.info(`fairness: Alice had ${waiting.length} documents still waiting when Bob's was claimed`);
    expect(waiting.length).toBeGreaterThan(0);
    expect((await download(t, bob, other.key)).status).toBe(200);
  }, 400_000);

  it('seconds_remaining of a translating document follows the throughput its checkpoints measured', async () => {
    const started = Date.parse('2026-11-28T00:00:00Z');
    const job = (checkpoint: unknown) =>
      ({ status: 'running', checkpoint, input: { estimateMs: 205_000 } }) as never;
    // 40 % done in 6.4 s since the attempt started (from 0): 9.6 s left at that pace, 1 s after the save.
    const measured = await secondsRemaining(
      job({
        done: 0.4,
        attemptDone: 0,
        attemptStartedAt: new Date(started).toISOString(),
        savedAt: new Date(started + 6400).toISOString(),
      }),
      async () => 1,
      2,
      started + 7400,
    );
    expect(measured).toBe(9);
    // A resumed attempt: it started at 80 % (kept chunks), and did 10 % in 2 s: 2 s for the last 10 %.
    const resumed = await secondsRemaining(
      job({
        done: 0.9,
        attemptDone: 0.8,
        attemptStartedAt: new Date(started).toISOString(),
        savedAt: new Date(started + 2000).toISOString(),
      }),
      async () => 1,
      2,
      started + 2000,
    );
    expect(resumed).toBe(2);
    // No chunk done yet: the upload's estimate, less the time spent.
    const early = await secondsRemaining(
      job({
        done: 0,
        attemptDone: 0,
        attemptStartedAt: new Date(started).toISOString(),
        savedAt: new Date(started).toISOString(),
      }),
      async () => 1,
      2,
      started + 5000,
    );
    expect(early).toBe(200);
  });
});
