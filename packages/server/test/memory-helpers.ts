import { readdirSync, readFileSync } from 'node:fs';
import { BACKGROUND_NICENESS } from '../src/thread-priority.js';
import type { TestServer } from './helpers.js';

export const tmx = (units: readonly (readonly [string, string])[], source = 'en', target = 'es') =>
  `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4">
  <header creationtool="test" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="${source}" datatype="plaintext"/>
  <body>
${units.map(([a, b]) => `    <tu><tuv xml:lang="${source}"><seg>${a}</seg></tuv><tuv xml:lang="${target}"><seg>${b}</seg></tuv></tu>`).join('\n')}
  </body>
</tmx>
`;

export interface ImportResult {
  jobId: string;
  status: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  result: any;
}

/** Polls a memory job until it leaves `awaiting_input`/`processing`. */
export async function waitForJob(t: TestServer, jobId: string, key?: string): Promise<ImportResult> {
  for (let i = 0; i < 400; i++) {
    const job = await t.call(`/v3/translation_memories/jobs/${jobId}`, key === undefined ? {} : { key });
    const result = job.data.results?.[0];
    if (result && result.status !== 'processing' && result.status !== 'awaiting_input') {
      return { jobId, status: result.status, result };
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** Starts an import job, PUTs `content` to its upload URL without a key, and waits for the job. */
export async function importTmx(
  t: TestServer,
  content: string | Uint8Array,
  name = 'memory',
  key?: string,
): Promise<ImportResult & { upload: number }> {
  const length = typeof content === 'string' ? Buffer.byteLength(content) : content.byteLength;
  const started = await t.call('/v3/translation_memories/import', {
    json: {
      source_file: { file_name: `${name}.tmx`, content_length: length },
      parameters: { display_name: name },
    },
    ...(key === undefined ? {} : { key }),
  });
  if (started.status !== 202) throw new Error(`import: ${started.status} ${started.text}`);
  const upload = await fetch(started.data.upload_url, { method: 'PUT', body: content });
  await upload.arrayBuffer();
  return { ...(await waitForJob(t, started.data.job_id, key)), upload: upload.status };
}

const WORDS = 'the file disk house green server opens reads quickly small new old'.split(' ');
/** Units for the import-thread tests: 3,000 of seven words, each target with an inline code. */
export const threadUnits = Array.from({ length: 3000 }, (_, n): [string, string] => {
  const words = Array.from({ length: 7 }, (_, k) => WORDS[(n * 7 + k * 5 + Math.floor(n / 12)) % 12]);
  return [`${words.join(' ')} ${n}`, `es <ph x="1">&lt;b&gt;</ph>${n} ${words.join(' ')}`];
});
/** Distinct words of `threadUnits`. */
export const THREAD_WORDS = WORDS.length;

/** The file in pieces; `pause` (a piece's index) waits for `resume` before handing that piece on. */
export async function* pieces(
  content: Buffer,
  pause?: { at: number; reached: () => void; resume: Promise<void> },
) {
  for (let at = 0, index = 0; at < content.length; at += 16 * 1024, index++) {
    if (index === pause?.at) {
      pause.reached();
      await pause.resume;
    }
    yield content.subarray(at, at + 16 * 1024);
  }
}

const niceness = (tid: string) => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};
/** The process's threads at the background priority (thread-priority.ts), Linux only. */
export const loweredThreads = () => {
  const lowered = Math.min(19, niceness(String(process.pid)) + BACKGROUND_NICENESS);
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      return niceness(tid) === lowered;
    } catch {
      return false; // ended meanwhile
    }
  }).length;
};
