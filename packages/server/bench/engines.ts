/**
 * The `openai` engine's batching and concurrency: a 57-file docs tree (the first 57 Markdown files of this
 * repository, `git ls-files '*.md'`, split into paragraphs and sentences) translated to Japanese through the
 * engine and its "never worse" chain, against a local OpenAI-compatible server (test/llm-mock.ts, every
 * request validated against OpenAI's OpenAPI description) that answers each call after a fixed 200 ms.
 * Baselines measured in the same run: calls against ceil(tokens / batch budget) (bound 1.1×); wall time
 * against calls × 200 ms / concurrency (printed) and against the same calls replayed by plain fetch workers
 * at the same concurrency (bound 1.2×: on a loaded machine the ideal is out of reach for any client); and
 * the one-segment-per-call engine a naive integration would be, on the first 40 segments, for the ratio.
 *   pnpm --filter @glossa/server bench:engines
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createEngineChain } from '../src/engines/chain.js';
import { createDeeplEngine } from '../src/engines/deepl.js';
import { estimateTokens } from '../src/engines/llm.js';
import { createOpenAiEngine } from '../src/engines/openai.js';
import { startLlmMock } from '../test/llm-mock.js';

const DELAY_MS = 200;
const CONCURRENCY = 4;
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const files = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && !file.includes('/fixtures/'))
  .sort()
  .slice(0, 57);
const segments = files.flatMap((file) =>
  readFileSync(`${root}/${file}`, 'utf8')
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      paragraph
        .replace(/\s+/g, ' ')
        .trim()
        .split(/(?<=[.!?])\s+(?=[A-Z])/),
    )
    .filter((segment) => /\p{L}{2,}/u.test(segment)),
);
const characters = segments.reduce((sum, segment) => sum + segment.length, 0);

const mock = await startLlmMock({ delayMs: DELAY_MS });
try {
  const engine = createOpenAiEngine(
    {
      baseUrl: mock.url,
      apiKey: 'sk-bench',
      model: 'bench-8k',
      contextTokens: 8_192,
      maxOutputTokens: 4_096,
      concurrency: CONCURRENCY,
    },
    {},
  );
  const problems = new Map<string, number>();
  const chain = createEngineChain([{ engine, pair: { source: 'en', target: 'ja' } }], {
    onKeptSource: (event) => {
      for (const attempt of event.attempts) {
        const problem = attempt.problems[0]!.split(':')[0]!;
        problems.set(problem, (problems.get(problem) ?? 0) + 1);
      }
    },
  });
  // Warm-up: one whole untimed run (the mock's schema compiles, the JIT warms the parsing and checking of
  // both sides; the first run is ~1.5× slower than the next ones on this machine).
  await createEngineChain([{ engine, pair: { source: 'en', target: 'ja' } }]).translate({
    texts: segments,
    source: 'en',
    target: 'ja',
    markup: false,
    formality: 'default',
  });
  mock.calls.length = 0;
  const tokens = segments.reduce((sum, segment) => sum + estimateTokens(segment) + 8, 0);
  // Best of two timed runs (and of two replays below): the machine is shared, single runs are noisy.
  let out: string[] = [];
  let wallMs = Number.POSITIVE_INFINITY;
  let calls = 0;
  for (let run = 0; run < 2; run++) {
    mock.calls.length = 0;
    const started = performance.now();
    out = await chain.translate({
      texts: segments,
      source: 'en',
      target: 'ja',
      markup: false,
      formality: 'default',
    });
    wallMs = Math.min(wallMs, performance.now() - started);
    calls = mock.calls.length;
  }
  const expectedCalls = Math.ceil(tokens / engine.batchBudget);
  const idealMs = (calls * DELAY_MS) / CONCURRENCY;
  const kept = out.filter((text, index) => text === segments[index]).length;

  // Baseline for the wall time on a loaded machine: the same request bodies replayed by 4 plain fetch
  // workers (no batching, parsing or checks): what the server and the machine need for these calls.
  const bodies = mock.calls.map((call) => JSON.stringify(call.body));
  let replayMs = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 2; run++) {
    const replayStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const response = await fetch(`${mock.url}/chat/completions`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await response.text();
        }
      }),
    );
    replayMs = Math.min(replayMs, performance.now() - replayStarted);
  }

  // Baseline: one segment per call (what a per-string integration sends), same server, same concurrency.
  const sample = segments.slice(0, 40);
  const single = createOpenAiEngine(
    {
      baseUrl: mock.url,
      apiKey: 'sk-bench',
      model: 'bench-8k',
      contextTokens: 8_192,
      maxOutputTokens: 4_096,
      concurrency: CONCURRENCY,
    },
    {},
  );
  const before = mock.calls.length;
  const singleStarted = performance.now();
  await Promise.all(
    sample.map((text) =>
      single.translate({ texts: [text], source: 'en', target: 'ja', markup: false, formality: 'default' }),
    ),
  );
  const singleMs = performance.now() - singleStarted;
  const singleCalls = mock.calls.length - before;

  console.log(
    `docs tree: ${files.length} files, ${segments.length} segments, ${characters} characters, ~${tokens} tokens`,
  );
  console.log(
    `batch budget: ${engine.batchBudget} tokens (context 8192, answer 4096), concurrency ${CONCURRENCY}, ${DELAY_MS} ms a call`,
  );
  console.log(
    `calls: ${calls} vs ceil(tokens / budget) = ${expectedCalls}: ratio ${(calls / expectedCalls).toFixed(3)} (bound 1.1)`,
  );
  console.log(
    `wall: ${wallMs.toFixed(0)} ms vs calls × ${DELAY_MS} ms / ${CONCURRENCY} = ${idealMs.toFixed(0)} ms: ratio ${(wallMs / idealMs).toFixed(3)} (bound 1.2)`,
  );
  console.log(
    `wall vs the same calls replayed by ${CONCURRENCY} plain fetch workers (${replayMs.toFixed(0)} ms): ratio ${(wallMs / replayMs).toFixed(3)}; load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)} on ${(await import('node:os')).availableParallelism()} cores`,
  );
  console.log(
    `outputs equal to their source: ${kept}; checks failed: (${[...problems].map(([problem, count]) => `${count}× ${problem}`).join('; ')}); invalid requests: ${mock.invalidRequests()}`,
  );
  console.log(
    `baseline, one segment per call: ${singleCalls} calls for ${sample.length} segments in ${singleMs.toFixed(0)} ms; batched: ${(segments.length / calls).toFixed(1)} segments a call, ${(singleMs / sample.length / (wallMs / segments.length)).toFixed(1)}× less wall time per segment`,
  );
  // The wall-time bound holds against the replay (the machine's own latency for these calls); against the
  // ideal calls × 200 ms / concurrency only on an idle machine, so that ratio is printed, not enforced.
  if (calls > 1.1 * expectedCalls || wallMs > 1.2 * replayMs || mock.invalidRequests() > 0) {
    console.error('bench:engines: a bound is not met');
    process.exitCode = 1;
  }
} finally {
  await mock.close();
}

// DeepL against its own mock (test/fixtures/deepl-mock): requests against the bound of DeepL's limits,
// max(ceil(texts / 50), ceil(JSON bytes / 124 KiB)).
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as { port: number };
    probe.close(() => resolve(free));
  });
});
const deeplMock = spawn(process.execPath, ['index.js'], {
  cwd: fileURLToPath(new URL('../test/fixtures/deepl-mock/', import.meta.url)),
  env: {
    ...process.env,
    DEEPL_MOCK_SERVER_PORT: String(port),
    DEEPL_MOCK_PROXY_SERVER_PORT: String(port + 1),
  },
  stdio: ['ignore', 'pipe', 'ignore'],
});
try {
  await new Promise<void>((resolve, reject) => {
    let output = '';
    deeplMock.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) resolve();
    });
    deeplMock.once('exit', (code) => reject(new Error(`deepl-mock exited (${code})`)));
  });
  const deepl = createDeeplEngine({ authKey: 'bench:fx', serverUrl: `http://127.0.0.1:${port}` }, {});
  const started = performance.now();
  await deepl.translate({ texts: segments, source: 'en', target: 'de', markup: false, formality: 'default' });
  const ms = performance.now() - started;
  const bytes = segments.reduce((sum, segment) => sum + Buffer.byteLength(JSON.stringify(segment)) + 1, 0);
  const bound = Math.max(Math.ceil(segments.length / 50), Math.ceil(bytes / (124 * 1024)));
  const requests = deepl.usage!().requests;
  console.log(
    `deepl: ${requests} requests for ${segments.length} texts (${bytes} bytes) vs the bound of DeepL's limits ${bound}: ratio ${(requests / bound).toFixed(3)} (bound 1.05), ${ms.toFixed(0)} ms`,
  );
  if (requests > 1.05 * bound) {
    console.error('bench:engines: the deepl request bound is not met');
    process.exitCode = 1;
  }
} finally {
  deeplMock.kill();
}
