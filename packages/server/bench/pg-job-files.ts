/**
 * Issue 31: what a PostgreSQL job file of the largest upload the limits allow (100 MiB, the TMX import's)
 * costs the event loop, as the job runner stores it and as the job reads it back. A throwaway cluster
 * (`test/services.ts` `startPostgres`), the job backend of a PostgreSQL storage; the file arrives as an
 * upload does (64 KiB slices, a turn of the event loop between two) and is read back as the TMX import reads
 * it (`files.stream`). A probe measures each phase: wall time, the event loop's busy share and busy time
 * (`eventLoopUtilization`), the longest stall (the gap between two 5 ms timer ticks, less 5 ms) and the
 * delay p99 (`monitorEventLoopDelay`). `ROUNDS=n` (default 3), `MIB=n` (default 100).
 * Run with `node --cpu-prof --import tsx --conditions @glossa/source bench/pg-job-files.ts` for a profile.
 */
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createPostgresStorage } from '../src/storage/postgres.js';
import { startPostgres } from '../test/services.js';

const rounds = Number(process.env.ROUNDS ?? 3);
const size = Number(process.env.MIB ?? 100) * 1024 * 1024;

function probe() {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const elu = performance.eventLoopUtilization();
  let last = performance.now();
  let stall = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  return () => {
    clearInterval(tick);
    delay.disable();
    const used = performance.eventLoopUtilization(elu);
    const wall = performance.now() - started;
    return {
      wallMs: Math.round(wall),
      busy: Number(used.utilization.toFixed(2)),
      busyMs: Math.round(used.active),
      stallMs: Math.round(stall),
      delayP99Ms: Number((delay.percentile(99) / 1e6).toFixed(1)),
    };
  };
}

async function* upload(data: Uint8Array): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += 64 * 1024) {
    yield data.subarray(at, at + 64 * 1024);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const cluster = await startPostgres();
const storage = await createPostgresStorage(await cluster.createDatabase());
const backend = storage.openJobBackend();
try {
  const data = Buffer.alloc(size);
  for (let at = 0; at < size; at++) data[at] = 32 + (at % 95);
  for (let round = 1; round <= rounds; round++) {
    const id = randomUUID();
    let end = probe();
    await backend.insert({
      id,
      kind: 'bench/files',
      accountId: 'bench',
      input: '{}',
      maxQueued: 100,
      files: { upload: upload(data) },
      releaseBy: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const stage = end();
    end = probe();
    let bytes = 0;
    for await (const chunk of (await backend.files.stream(id, 'upload'))!) {
      bytes += chunk.length;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const read = end();
    if (bytes !== size) throw new Error(`read ${bytes} bytes of ${size}`);
    await storage.pool.query('DELETE FROM jobs WHERE id = $1', [id]);
    console.log(JSON.stringify({ round, mib: size / 1024 / 1024, stage, read }));
  }
} finally {
  await backend.close();
  await storage.close();
  await cluster.stop();
}
