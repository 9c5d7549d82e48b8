/**
 * Quality evaluation at the public paths (issue 18): `POST /v1/quality-evaluation` starts a job, `GET
 * /v1/quality-evaluation/{job_id}` polls it, with the shapes of the public description. The alias
 * `POST /v3/quality/evaluate` stays (quality.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const submit = (json: unknown, options = {}) => t.call('/v1/quality-evaluation', { json, ...options });

/** Polls until the job is no longer processing (each 202 says when to come back). */
async function result(pollUrl: string, options = {}): Promise<Reply> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const reply = await t.call(pollUrl, options);
    if (reply.status !== 202) return reply;
    expect(reply.data).toEqual({ job_id: pollUrl.split('/').at(-1), status: 'processing' });
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`job ${pollUrl} still processing after 60 s`);
}

describe('POST /v1/quality-evaluation, GET /v1/quality-evaluation/{job_id}', () => {
  it('accepts a job (202, poll_url, Retry-After) and reports each segment in the public typology', async () => {
    const created = await submit({
      metadata: { source_language: 'en', target_language: 'es' },
      segments: [
        {
          source: 'Click <b>Save</b> to keep 25 files.',
          target: 'Haga clic en Guardar para conservar 52 archivos.',
        },
        { source: 'Open the file now.', target: 'Abra el archivo ahora.' },
        { source: 'Write to help@example.org today.', target: 'Escriba.' },
      ],
    });
    expect(created.status).toBe(202);
    expect(Number(created.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(created.data.job_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(created.data.poll_url).toBe(`/v1/quality-evaluation/${created.data.job_id}`);
    const done = await result(created.data.poll_url);
    expect(done.status).toBe(200);
    expect(done.data).toEqual({
      job_id: created.data.job_id,
      status: 'done',
      segments: [
        {
          segment_index: 0,
          errors: [
            {
              type: 'Accuracy',
              sub_type: 'Omission',
              severity: 'Major',
              explanation: 'The tag <b> of the source is missing.',
              source_spans: [{ start: 6, end: 9 }],
              target_spans: [],
            },
            {
              type: 'Accuracy',
              sub_type: 'Omission',
              severity: 'Major',
              explanation: 'The tag </b> of the source is missing.',
              source_spans: [{ start: 13, end: 17 }],
              target_spans: [],
            },
            {
              type: 'Accuracy',
              sub_type: 'Mistranslation',
              severity: 'Major',
              explanation: 'The number 52 differs from 25 in the source.',
              source_spans: [{ start: 26, end: 28 }],
              target_spans: [{ start: 36, end: 38 }],
            },
          ],
        },
        { segment_index: 1, errors: [] },
        {
          segment_index: 2,
          errors: [
            {
              type: 'Accuracy',
              sub_type: 'Mistranslation',
              severity: 'Major',
              explanation: 'The e-mail address help@example.org of the source is missing.',
              source_spans: [{ start: 9, end: 25 }],
              target_spans: [],
            },
            {
              type: 'Accuracy',
              sub_type: 'Omission',
              severity: 'Minor',
              explanation: expect.stringMatching(/^The translation is much shorter than the source/),
              source_spans: [{ start: 0, end: 32 }],
              target_spans: [{ start: 0, end: 8 }],
            },
          ],
        },
      ],
      // Segment scores 100 - 3 × 10, 100, 100 - 10 - 2: mean 86.
      summary: {
        overall_score: 86,
        granular_counts: {
          Accuracy: { Omission: { Major: 2, Minor: 1 }, Mistranslation: { Major: 2 } },
        },
      },
    });
  });

  it('checks the target spelling with its dictionary, spans in code points', async () => {
    const created = await submit({
      metadata: { source_language: 'en', target_language: 'es' },
      segments: [{ source: '😀 Open the file now.', target: '😀 Abra el arhcivo ahora.' }],
    });
    const done = await result(created.data.poll_url);
    expect(done.data.segments[0].errors).toEqual([
      {
        type: 'Fluency',
        sub_type: 'Spelling',
        severity: 'Minor',
        explanation: expect.stringContaining('arhcivo'),
        source_spans: [],
        target_spans: [{ start: 10, end: 17 }],
      },
    ]);
    expect(done.data.summary).toEqual({
      overall_score: 98,
      granular_counts: { Fluency: { Spelling: { Minor: 1 } } },
    });
  });

  it('refuses what the description refuses: 400 with a message', async () => {
    const segment = { source: 'Hi.', target: 'Hola.' };
    const bad = [
      { segments: [segment] },
      { metadata: { source_language: 'en' }, segments: [segment] },
      { metadata: { source_language: '', target_language: 'es' }, segments: [segment] },
      { metadata: { source_language: 'en', target_language: 'es' }, segments: [] },
      { metadata: { source_language: 'en', target_language: 'es' }, segments: [{ source: 'Hi.' }] },
      { metadata: { source_language: 'en', target_language: 'es' }, segments: Array(501).fill(segment) },
      {
        metadata: { source_language: 'en', target_language: 'es' },
        segments: [{ source: 'a'.repeat(10_001), target: 'b' }],
      },
      { metadata: { source_language: 'en', target_language: 'xx' }, segments: [segment] },
    ];
    for (const body of bad) {
      const reply = await submit(body);
      expect(reply.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(typeof reply.data.message).toBe('string');
    }
    // At the limits: 500 segments, 10,000 characters each side; an unknown parameter is ignored.
    const atLimit = await submit({
      metadata: { source_language: 'en', target_language: 'es', domain: 'finance' },
      segments: [{ source: 'a'.repeat(10_000), target: 'a'.repeat(10_000) }, ...Array(499).fill(segment)],
      extra: true,
    });
    expect(atLimit.status).toBe(202);
    expect((await result(atLimit.data.poll_url)).data.segments).toHaveLength(500);
  });

  it('polls: 400 for a job_id that is not a UUID, 404 for an unknown job or another account’s', async () => {
    const malformed = await t.call('/v1/quality-evaluation/not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.data.message).toBe('job_id must be a valid UUID.');
    const unknown = await t.call('/v1/quality-evaluation/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.data.message).toBe('Quality estimation job not found.');
    const created = await submit({
      metadata: { source_language: 'en', target_language: 'de' },
      segments: [{ source: 'Save your work.', target: 'Speichern Sie Ihre Arbeit.' }],
    });
    const stranger = await t.server.createAccount({ plan: 'paid', qualityAlpha: true });
    expect((await t.call(created.data.poll_url, { key: stranger.key })).status).toBe(404);
    const own = await result(created.data.poll_url);
    expect(own.data.status).toBe('done');
    expect(own.data.summary.overall_score).toBe(100);
  });

  it('an account holds at most 1,000 jobs (stored, on either backend): the next is a 429', {
    timeout: 120_000,
  }, async () => {
    // A server without the request rate limit, which would answer 429 first.
    const unlimited = await startTestServer({ rateLimit: false });
    try {
      const account = await unlimited.server.createAccount({ plan: 'paid', qualityAlpha: true });
      const body = {
        metadata: { source_language: 'en', target_language: 'fr' },
        segments: [{ source: 'Hi.', target: 'Salut.' }],
      };
      const send = (key?: string) =>
        unlimited.call('/v1/quality-evaluation', { json: body, ...(key ? { key } : {}) });
      for (let batch = 0; batch < 20; batch++) {
        const replies = await Promise.all(Array.from({ length: 50 }, () => send(account.key)));
        expect(replies.map((reply) => reply.status)).toEqual(Array(50).fill(202));
      }
      const over = await send(account.key);
      expect(over.status).toBe(429);
      expect(over.data.message).toBe('Too many jobs: an account may hold 1000 jobs of quality/evaluate.');
      // Another account is not affected.
      expect((await send()).status).toBe(202);
    } finally {
      await unlimited.close();
    }
  });

  it('is a closed alpha: 403 for an account without the flag', async () => {
    const plain = await t.server.createAccount({ plan: 'paid' });
    const body = {
      metadata: { source_language: 'en', target_language: 'es' },
      segments: [{ source: 'Hi.', target: 'Hola.' }],
    };
    expect((await submit(body, { key: plain.key })).status).toBe(403);
    expect(
      (await t.call('/v1/quality-evaluation/00000000-0000-4000-8000-000000000000', { key: plain.key }))
        .status,
    ).toBe(403);
  });
});
