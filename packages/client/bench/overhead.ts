// What the client costs per call on top of a bare `fetch`, against a loopback server that answers at
// once (so the client's own work is what differs): sequential and 16 concurrent calls of one text, and
// one 50-text request. Also the retry path: a call that meets one 503 (backoff ceiling 1 ms).
// Plus the request bytes of JSON against form encoding for CJK text (why the client sends JSON).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GlossaClient } from '../src/index.js';

let failNext = false;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (failNext) {
      failNext = false;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"busy"}');
      return;
    }
    const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string[] };
    const body = JSON.stringify({
      translations: text.map((t) => ({ detected_source_language: 'EN', text: t })),
    });
    res.writeHead(200, { 'content-type': 'application/json', 'x-trace-id': '0'.repeat(32) }).end(body);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const key = 'bench-key';
const client = new GlossaClient({ authKey: key, serverUrl: url, retryBaseDelay: 1 });
const fifty = Array.from({ length: 50 }, (_, i) => `Sentence number ${i}: the file could not be uploaded.`);

async function bareFetch(texts: string[]) {
  const response = await fetch(`${url}/v2/translate`, {
    method: 'POST',
    headers: { authorization: `Service-Auth-Key ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: texts, target_lang: 'es' }),
  });
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

async function timeOnce(calls: number, concurrency: number, run: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await run();
    }),
  );
  return Number(process.hrtime.bigint() - start) / 1_000 / calls;
}

/** Best of 5 interleaved rounds (the machine is shared: the best round is the least disturbed). */
async function compare(
  label: string,
  calls: number,
  concurrency: number,
  base: () => Promise<unknown>,
  ours: () => Promise<unknown>,
) {
  for (let i = 0; i < 300; i++) await base().then(ours); // warm up
  let bestBase = Number.POSITIVE_INFINITY;
  let bestOurs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    bestBase = Math.min(bestBase, await timeOnce(calls, concurrency, base));
    bestOurs = Math.min(bestOurs, await timeOnce(calls, concurrency, ours));
  }
  console.log(
    `${label.padEnd(40)} bare fetch ${bestBase.toFixed(1).padStart(7)} µs/call, GlossaClient ${bestOurs.toFixed(1).padStart(7)} µs/call`,
  );
  return [bestBase, bestOurs] as const;
}

const rows: [string, number, number][] = [];
for (const [label, calls, concurrency, texts] of [
  ['1 text, sequential', 1_000, 1, ['Hello world']],
  ['1 text, 16 concurrent', 2_000, 16, ['Hello world']],
  ['50 texts, sequential', 1_000, 1, fifty],
] as const) {
  const [base, ours] = await compare(
    label,
    calls,
    concurrency,
    () => bareFetch([...texts]),
    () => client.translateText(texts, { targetLang: 'es' }),
  );
  rows.push([label, base, ours]);
}
const [, retried] = await compare(
  'one 503 then 200 (client: 1 retry)',
  300,
  1,
  () => bareFetch(['Hello world']),
  () => {
    failNext = true;
    return client.translateText('Hello world', { targetLang: 'es' });
  },
);

console.log('\n| calls | bare fetch µs | GlossaClient µs | ratio |\n|---|---|---|---|');
for (const [label, base, ours] of rows) {
  console.log(`| ${label} | ${base.toFixed(1)} | ${ours.toFixed(1)} | ${(ours / base).toFixed(2)}x |`);
}
console.log(
  `| 1 retry after a 503 | ${rows[0]![1].toFixed(1)} (no fault) | ${retried.toFixed(1)} | ${(retried / rows[0]![1]).toFixed(2)}x |`,
);

const cjk = '東京の天気は晴れです。'.repeat(100);
const jsonBytes = Buffer.byteLength(JSON.stringify({ text: [cjk], target_lang: 'en' }));
const formBytes = Buffer.byteLength(
  new URLSearchParams([
    ['text', cjk],
    ['target_lang', 'en'],
  ]).toString(),
);
console.log(
  `\nCJK body, ${[...cjk].length} characters: JSON ${jsonBytes} bytes, form ${formBytes} bytes (${(formBytes / jsonBytes).toFixed(2)}x)`,
);
server.close();
