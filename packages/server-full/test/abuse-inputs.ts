/**
 * The full server's abusive inputs with a free key, shared by abuse-full.test.ts and
 * bench/abuse-latency.ts: three of the largest glossaries (10 MiB, the spine's abuse test's input) created
 * and used in turn and at once, the largest TMX file an import takes (MAX_TMX_BYTES), a quality-evaluation job
 * of the most and longest segments (MAX_EVALUATION_SEGMENTS × MAX_EVALUATION_SEGMENT_LENGTH, both sides),
 * and a synchronous evaluation whose one segment fills its body limit (the input that was quadratic).
 * Each keeps every answer on the way in `answers` and returns its last one (a job's final state).
 * (@glossa/protocol is read from its sources: this package does not depend on it.)
 */
import {
  MAX_EVALUATION_SEGMENT_LENGTH,
  MAX_EVALUATION_SEGMENTS,
  MAX_TMX_BYTES,
} from '../../protocol/src/index.js';
import { type Answer, largestGlossary } from '../../server/test/abuse-helpers.js';
import { prose } from './prose.js';

/** A call with the free key: a GET without `body`, a JSON POST with one. */
export type Call = (what: string, path: string, body?: unknown) => Promise<Answer>;

/** The synchronous evaluation's body limit (the spine's default body limit, 1 MiB). */
const SYNC_BODY_BYTES = 1024 * 1024;

let tmx: { content: Buffer; units: number } | undefined;

/** A TMX file of as close to MAX_TMX_BYTES as whole units allow: long segments (4,000 characters a side). */
export function largestTmx(): { content: Buffer; units: number } {
  if (tmx) return tmx;
  const head =
    '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="abuse" creationtoolversion="1" segtype="paragraph" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/><body>\n';
  const tail = '</body></tmx>\n';
  const parts = [head];
  let bytes = head.length + tail.length;
  let units = 0;
  for (;;) {
    const unit = `<tu><tuv xml:lang="en"><seg>${prose(4000, units)}</seg></tuv><tuv xml:lang="es"><seg>${prose(4000, units + 1)} (es)</seg></tuv></tu>\n`;
    if (bytes + unit.length > MAX_TMX_BYTES) break;
    parts.push(unit);
    bytes += unit.length;
    units++;
  }
  parts.push(tail);
  tmx = { content: Buffer.from(parts.join('')), units };
  return tmx;
}

/** Tries a refused call again after its `Retry-After` (at most 5 s, 8 tries), as a client should; every answer is kept. */
async function retrying(send: () => Promise<Answer>, answers: Answer[]): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await send();
    if (attempt === 8 || ![429, 503].includes(answer.status) || !answer.retryAfter) return answer;
    answers.push(answer);
    await new Promise((resolve) => setTimeout(resolve, Math.min(5, Number(answer.retryAfter)) * 1000));
  }
}

/**
 * Three of the largest glossaries (`seed`, `seed + 1`, `seed + 2`: a new seed makes new glossaries, nothing
 * compiled is reused): created one after another, a translation with each in turn and with the three at once,
 * then deleted; a request refused with `Retry-After` (the memory taken by other work) is sent again after it.
 * Returns the last answer that was not a success, or the last answer.
 */
export async function largestGlossaries(
  call: Call,
  remove: (path: string) => Promise<unknown>,
  answers: Answer[],
  seed: number,
): Promise<Answer> {
  const ids: string[] = [];
  const mine: Answer[] = [];
  for (let k = 0; k < 3; k++) {
    const created = await retrying(
      () =>
        call('glossary', '/v2/glossaries', {
          name: `g${seed + k}`,
          source_lang: 'en',
          target_lang: 'es',
          entries: largestGlossary(seed + k),
          entries_format: 'tsv',
        }),
      answers,
    );
    mine.push(created);
    if (created.status === 201) ids.push(JSON.parse(created.text).glossary_id);
  }
  const translate = (glossary_id: string, text: string) =>
    retrying(
      () =>
        call('translate', '/v2/translate', {
          text: [text],
          source_lang: 'EN',
          target_lang: 'ES',
          glossary_id,
        }),
      answers,
    );
  for (const id of ids) mine.push(await translate(id, `hello, the term${seed}x1 house`));
  mine.push(...(await Promise.all(ids.map((id, k) => translate(id, `the term${seed + k}x4 word4 files`)))));
  for (const id of ids) await remove(`/v2/glossaries/${id}`);
  answers.push(...mine);
  return mine.findLast((answer) => answer.status >= 300) ?? mine.at(-1)!;
}

/** Polls `path` (a job) until it is no longer running; every answer on the way is kept. */
async function poll(
  call: Call,
  what: string,
  path: string,
  running: (answer: Answer) => boolean,
  answers: Answer[],
) {
  for (;;) {
    const answer = await call(what, path);
    answers.push(answer);
    if (!running(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The answer to a request over MAX_TMX_BYTES (413 expected). */
export const importOverLimit = (call: Call) =>
  call('import over the limit', '/v3/translation_memories/import', {
    source_file: { file_name: 'over.tmx', content_length: MAX_TMX_BYTES + 1 },
  });

/**
 * Imports the largest TMX: created, uploaded to its signed URL, polled until done. Returns the job's last
 * answer and, once completed, the memory's id and segment count.
 */
export async function importLargestTmx(
  call: Call,
  answers: Answer[],
): Promise<{ answer: Answer; memoryId?: string | undefined; status?: string }> {
  const { content } = largestTmx();
  const created = await call('import', '/v3/translation_memories/import', {
    source_file: { file_name: 'largest.tmx', content_length: content.length },
    parameters: { display_name: 'largest' },
  });
  answers.push(created);
  if (created.status !== 202) return { answer: created };
  const job = JSON.parse(created.text) as { job_id: string; upload_url: string };
  const upload = await fetch(job.upload_url, { method: 'PUT', body: content });
  const uploaded: Answer = {
    what: 'upload',
    status: upload.status,
    retryAfter: upload.headers.get('retry-after'),
    text: await upload.text(),
  };
  answers.push(uploaded);
  if (upload.status !== 204) return { answer: uploaded };
  const done = await poll(
    call,
    'import job',
    `/v3/translation_memories/jobs/${job.job_id}`,
    (answer) => answer.status === 200 && /"status":"(processing|awaiting_input)"/.test(answer.text),
    answers,
  );
  if (done.status !== 200) return { answer: done };
  const result = (JSON.parse(done.text) as { results: { status: string; translation_memory_id?: string }[] })
    .results[0]!;
  return { answer: done, memoryId: result.translation_memory_id, status: result.status };
}

/** A quality-evaluation job of the most and longest segments, polled until it has its report. */
export async function qualityJob(call: Call, answers: Answer[]): Promise<Answer> {
  const segments = Array.from({ length: MAX_EVALUATION_SEGMENTS }, (_, i) => ({
    source: prose(MAX_EVALUATION_SEGMENT_LENGTH, i),
    target: prose(MAX_EVALUATION_SEGMENT_LENGTH, i + 1),
  }));
  const submitted = await call('quality job', '/v1/quality-evaluation', {
    metadata: { source_language: 'en', target_language: 'es' },
    segments,
  });
  answers.push(submitted);
  if (submitted.status !== 202) return submitted;
  const { job_id } = JSON.parse(submitted.text) as { job_id: string };
  return poll(
    call,
    'quality poll',
    `/v1/quality-evaluation/${job_id}`,
    (answer) => answer.status === 202,
    answers,
  );
}

/**
 * A synchronous evaluation of one segment whose source and translation (English prose) fill the body limit
 * (sent again after a refusal's `Retry-After`).
 */
export async function qualitySync(call: Call, answers: Answer[]): Promise<Answer> {
  const side = Math.floor((SYNC_BODY_BYTES - 200) / 2);
  const answer = await retrying(
    () =>
      call('quality sync', '/v3/quality/evaluate', {
        source_lang: 'en',
        target_lang: 'es',
        segments: [{ source: prose(side, 0), translation: prose(side, 1) }],
      }),
    answers,
  );
  answers.push(answer);
  return answer;
}
