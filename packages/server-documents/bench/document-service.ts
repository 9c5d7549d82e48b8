/**
 * The document benchmarks' client: a real server in a temp data dir, a document through the whole job
 * (upload, status polling, download), and the same text through /v2/translate in batches of 50.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '@glossa/server';
import { BENCH_SERVER_OPTIONS } from '../../server/bench/bench-server.js';
import { documentsFeature } from '../src/index.js';

export interface BenchService {
  /** Bytes of the translated document. */
  translateDocument(bytes: Uint8Array, name: string, target: string): Promise<number>;
  translateText(texts: readonly string[], target: string, tagHandling?: 'xml'): Promise<void>;
  close(): Promise<void>;
}

export async function startBenchService(name: string): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), `glossa-bench-${name}-`));
  const server = await startServer({
    dataDir,
    ...BENCH_SERVER_OPTIONS,
    features: [documentsFeature()],
  });
  const auth = { authorization: `Service-Auth-Key ${server.devKey}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const post = (path: string, body: string | FormData, headers: Record<string, string>) =>
    fetch(`${server.url}${path}`, { method: 'POST', body, headers });

  return {
    async translateDocument(bytes, fileName, target) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
      form.append('target_lang', target);
      form.append('source_lang', 'EN');
      const uploaded = await post('/v2/document', form, auth);
      if (uploaded.status !== 200) throw new Error(`upload ${uploaded.status}: ${await uploaded.text()}`);
      const ids = (await uploaded.json()) as { document_id: string; document_key: string };
      const body = JSON.stringify({ document_key: ids.document_key });
      for (;;) {
        const reply = await post(`/v2/document/${ids.document_id}`, body, json);
        const status = (await reply.json()) as { status: string; error_message?: string };
        if (status.status === 'error') throw new Error(status.error_message);
        if (status.status === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const result = await post(`/v2/document/${ids.document_id}/result`, body, json);
      return (await result.arrayBuffer()).byteLength;
    },
    async translateText(texts, target, tagHandling) {
      for (let start = 0; start < texts.length; start += 50) {
        const response = await post(
          '/v2/translate',
          JSON.stringify({
            text: texts.slice(start, start + 50),
            target_lang: target,
            source_lang: 'EN',
            ...(tagHandling ? { tag_handling: tagHandling } : {}),
          }),
          json,
        );
        if (response.status !== 200) throw new Error(`translate ${response.status}`);
      }
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
