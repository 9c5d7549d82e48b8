/**
 * Quality evaluation at the public description's paths (closed alpha; accounts flagged for it, else 403):
 * `POST /v1/quality-evaluation` accepts `{metadata: {source_language, target_language}, segments: [{source,
 * target}]}` and answers 202 `{job_id, poll_url}`; `GET /v1/quality-evaluation/{job_id}` answers 202
 * `{job_id, status: 'processing'}` (with `Retry-After`) until the checks are done, then 200 with the report
 * (`segments[].errors[]` in the public typology, with spans on both sides, and a `summary`), or 200 with
 * `status: 'error'` when the evaluation failed. The checks are those of `/v3/quality/evaluate` (the
 * synchronous alias). Jobs run on the server's job runner (service.ts), their request and report job files
 * kept 24 hours after they finish; a poll for another account's job, an unknown or an expired one is a 404.
 */

import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { canonicalLanguage, ENDPOINTS } from '@glossa/protocol';
import { badRequest, defineRoute, nextTurn, notFound, type Route } from '@glossa/server/feature';
import { failedReport, utf8Json } from './evaluate.js';
import { compressReport, decompressReport, qualityServiceOf, REPORT_FILE, REQUEST_FILE } from './service.js';

/** Seconds the 202 answers suggest waiting before the next poll. */
const RETRY_AFTER_SECONDS = 1;

export const submitQualityEvaluationRoute: Route = {
  ...defineRoute(ENDPOINTS.submitQualityEvaluation, async ({ body, caller, context, reply }) => {
    const { source_language, target_language } = body.metadata;
    const sourceLang = canonicalLanguage(source_language);
    const targetLang = canonicalLanguage(target_language);
    if (!sourceLang || !targetLang) {
      const which = sourceLang
        ? `target_language '${target_language}'`
        : `source_language '${source_language}'`;
      throw badRequest(
        `The source_language / target_language combination is not supported: unknown metadata.${which}.`,
      );
    }
    const request = await compressedRequest(sourceLang, targetLang, body.segments);
    // Past the account's limit (this kind's, or the runner's of every kind): a 429 (the spine's).
    const { id } = await qualityServiceOf(context).queue.submit(
      caller.account.id,
      {
        characters: body.segments.reduce(
          (sum, segment) => sum + segment.source.length + segment.target.length,
          0,
        ),
      },
      { files: { [REQUEST_FILE]: request } },
    );
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    return { job_id: id, poll_url: `/v1/quality-evaluation/${id}` };
  }),
  // Up to 500 segments of 2 × 10,000 characters (JSON-escaped): more than the default 1 MiB.
  bodyLimit: 64 * 1024 * 1024,
};

export const pollQualityEvaluationRoute: Route = defineRoute(
  ENDPOINTS.pollQualityEvaluation,
  async ({ params, caller, context, request, reply }) => {
    const id = params.job_id;
    if (!UUID.test(id)) throw badRequest('job_id must be a valid UUID.');
    const job = await answerOf(context, caller.account.id, id.toLowerCase());
    if (!job) throw notFound('Quality estimation job not found.');
    // The report as stored (up to some 80 MB of JSON, never parsed here): gzip-compressed to a client that
    // accepts it (most do), else decompressed (on libuv's thread pool).
    if (job !== 'processing') {
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (acceptsGzip(request.headers['accept-encoding']))
        return reply.header('content-encoding', 'gzip').send(job);
      return reply.send(await decompressReport(job));
    }
    return reply
      .code(202)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .send({ job_id: id.toLowerCase(), status: 'processing' });
  },
);

/**
 * The account's job: its report as stored (gzip-compressed), a failed report when the runner ended it without
 * one (failed after its retries, cancelled), `processing` while it is queued or running; undefined when it
 * is unknown, another account's, or expired.
 */
async function answerOf(context: Parameters<typeof qualityServiceOf>[0], accountId: string, id: string) {
  const { queue } = qualityServiceOf(context);
  const job = await queue.status(id, { accountId });
  if (!job || job.status === 'expired') return undefined;
  if (job.status === 'queued' || job.status === 'running') return 'processing';
  if (job.status === 'completed') return queue.file(id, REPORT_FILE);
  return compressReport(utf8Json(failedReport(id, job.error ?? `the job was ${job.status}.`)));
}

/** Segments serialized per turn of the event loop (at the limits, 32 × 20,000 characters: a few ms). */
const SEGMENTS_PER_TURN = 32;

/**
 * The job's request as gzip-compressed JSON, `{sourceLang, targetLang, segments: [{source, translation}]}`
 * (what `JSON.stringify` gives), serialized `SEGMENTS_PER_TURN` segments per turn of the event loop and
 * compressed as it goes on libuv's thread pool: at the limits it is 10 M characters, 40–90 ms of the event
 * loop serialized at once.
 */
async function compressedRequest(
  sourceLang: string,
  targetLang: string,
  segments: readonly { readonly source: string; readonly target: string }[],
): Promise<Buffer> {
  async function* json() {
    yield `{"sourceLang":${JSON.stringify(sourceLang)},"targetLang":${JSON.stringify(targetLang)},"segments":[`;
    for (let from = 0; from < segments.length; from += SEGMENTS_PER_TURN) {
      if (from > 0) await nextTurn();
      const slice = segments
        .slice(from, from + SEGMENTS_PER_TURN)
        .map(({ source, target }) => JSON.stringify({ source, translation: target }));
      yield (from > 0 ? ',' : '') + slice.join(',');
    }
    yield ']}';
  }
  const gzip = createGzip();
  const [compressed] = await Promise.all([buffer(gzip), pipeline(Readable.from(json()), gzip)]);
  return compressed;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an Accept-Encoding header accepts gzip (named, without `q=0`). */
function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part
      .toLowerCase()
      .split(';')
      .map((item) => item.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q.slice(2)) > 0);
  });
}
