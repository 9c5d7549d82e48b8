/** Upload, poll and download helpers for the document tests (real server, real HTTP, multipart bodies). */
// biome-ignore-all lint/suspicious/noExplicitAny: tests read arbitrary JSON
import type { TestServer } from './helpers.js';

export interface DocumentIds {
  document_id: string;
  document_key: string;
}

export async function upload(
  t: TestServer,
  name: string,
  bytes: Uint8Array | string,
  fields: Record<string, string> = { target_lang: 'en-XA', source_lang: 'EN' },
  options: { key?: string; base?: string } = {},
): Promise<{ status: number; data: any }> {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  const response = await fetch(`${options.base ?? t.server.url}/v2/document`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Service-Auth-Key ${options.key ?? t.server.devKey}` },
  });
  const text = await response.text();
  let data: any = text;
  try {
    data = JSON.parse(text);
  } catch {}
  return { status: response.status, data };
}

export const status = (t: TestServer, ids: DocumentIds, key?: string) =>
  t.call(`/v2/document/${ids.document_id}`, {
    json: { document_key: ids.document_key },
    ...(key ? { key } : {}),
  });

export async function download(
  t: TestServer,
  ids: DocumentIds,
  key?: string,
): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(`${t.server.url}/v2/document/${ids.document_id}/result`, {
    method: 'POST',
    headers: {
      authorization: `Service-Auth-Key ${key ?? t.server.devKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ document_key: ids.document_key }),
  });
  return {
    status: response.status,
    bytes: Buffer.from(await response.arrayBuffer()),
    headers: response.headers,
  };
}

/** Polls until done or error (at most `timeoutMs`); returns the last status body. */
export async function waitDone(t: TestServer, ids: DocumentIds, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const reply = await status(t, ids);
    if (reply.status !== 200) throw new Error(`status ${reply.status}: ${reply.text}`);
    if (reply.data.status === 'done' || reply.data.status === 'error') return reply.data;
    if (Date.now() > until) throw new Error(`document still ${reply.data.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Upload, wait, download: the translated bytes and the final status. */
export async function translateFile(
  t: TestServer,
  name: string,
  bytes: Uint8Array | string,
  fields?: Record<string, string>,
): Promise<{ bytes: Buffer; text: string; final: any }> {
  const uploaded = await upload(t, name, bytes, fields);
  if (uploaded.status !== 200) throw new Error(`upload ${uploaded.status}: ${JSON.stringify(uploaded.data)}`);
  const final = await waitDone(t, uploaded.data);
  if (final.status !== 'done') throw new Error(`document failed: ${final.error_message}`);
  const result = await download(t, uploaded.data);
  if (result.status !== 200) throw new Error(`download ${result.status}: ${result.bytes.toString()}`);
  return { bytes: result.bytes, text: result.bytes.toString('utf8'), final };
}
