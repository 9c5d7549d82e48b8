/**
 * The `filename` parameter names the document when the file part carries no usable name: a Blob appended
 * without a name (FormData calls it "blob"), and a raw part whose Content-Disposition has no filename.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, waitDone } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

async function post(body: FormData | string, headers: Record<string, string> = {}) {
  const response = await fetch(`${t.server.url}/v2/document`, {
    method: 'POST',
    body,
    headers: { authorization: `Service-Auth-Key ${t.server.devKey}`, ...headers },
  });
  return { status: response.status, data: JSON.parse(await response.text()) };
}

describe('the filename parameter', () => {
  it('names a file part appended without a name (FormData sends "blob")', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Hello world.\n']));
    form.append('filename', 'greeting.txt');
    form.append('target_lang', 'ES');
    form.append('source_lang', 'EN');
    const uploaded = await post(form);
    expect(uploaded.status).toBe(200);
    expect((await waitDone(t, uploaded.data)).status).toBe('done');
    const result = await download(t, uploaded.data);
    expect(result.headers.get('content-disposition')).toContain('filename="greeting.txt"');
    expect(result.bytes.toString()).toMatch(/^Hola mundo\.\n$/i);
  });

  it('names a file part whose Content-Disposition has no filename at all', async () => {
    const boundary = 'glossa-boundary-7f3a';
    const part = (headers: string, value: string) => `--${boundary}\r\n${headers}\r\n\r\n${value}\r\n`;
    const body =
      part('Content-Disposition: form-data; name="target_lang"', 'ES') +
      part('Content-Disposition: form-data; name="source_lang"', 'EN') +
      part('Content-Disposition: form-data; name="filename"', 'plain.txt') +
      part('Content-Disposition: form-data; name="file"\r\nContent-Type: text/plain', 'Hello world.\n') +
      `--${boundary}--\r\n`;
    const uploaded = await post(body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(uploaded.status).toBe(200);
    expect((await waitDone(t, uploaded.data)).status).toBe('done');
    const result = await download(t, uploaded.data);
    expect(result.headers.get('content-disposition')).toContain('filename="plain.txt"');
    expect(result.bytes.toString()).toMatch(/^Hola mundo\.\n$/i);
  });

  it('a file part with no name and no filename parameter is still refused, naming the problem', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Hello world.\n']));
    form.append('target_lang', 'ES');
    const uploaded = await post(form);
    expect(uploaded.status).toBe(400);
    expect(uploaded.data.message).toContain('unsupported file extension');
  });
});
