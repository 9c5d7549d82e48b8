import { deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const text = (value: string) => new TextEncoder().encode(value);
const DOCUMENT_XML =
  '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>';

/** A ZIP with one stored or deflated entry, written byte by byte so names and sizes can lie. */
function handMadeZip(name: string, content: Uint8Array, declaredSize = content.length): Uint8Array {
  const data = deflateRawSync(content);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declaredSize, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declaredSize, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  central.writeUInt32LE(0, 42);
  const directoryOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

describe('packages and XML that are refused', () => {
  it('a zip bomb (a 60 MiB part of zeros): 400, nothing queued', async () => {
    const bomb = zipSync({
      'word/document.xml': text(DOCUMENT_XML),
      'word/bomb.xml': new Uint8Array(60 * 1024 * 1024),
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    const reply = await upload(t, 'bomb.docx', bomb);
    expect(reply.status).toBe(400);
    expect(reply.data.message).toMatch(/expands \d+ times: refused as a zip bomb/);
  });

  it('an entry that lies about its size is not inflated past it: 400', async () => {
    const reply = await upload(
      t,
      'liar.docx',
      handMadeZip('word/document.xml', new Uint8Array(5 * 1024 * 1024), 1000),
    );
    expect(reply.status).toBe(400);
    expect(reply.data.message).toMatch(/does not inflate to its declared size/);
  });

  it('an oversized part: 413', async () => {
    const reply = await upload(
      t,
      'big.docx',
      handMadeZip('word/document.xml', text(DOCUMENT_XML), 100 * 1024 * 1024),
    );
    expect(reply.status).toBe(413);
    expect(reply.data.message).toMatch(/is 104857600 bytes uncompressed \(at most 67108864\)/);
  });

  it.each(['../evil.xml', '/etc/passwd', 'word\\..\\evil.xml', 'word/../../evil.xml', 'C:/evil.xml'])(
    'path traversal in an entry name (%s): 400',
    async (name) => {
      const reply = await upload(
        t,
        'trav.docx',
        zipSync({ 'word/document.xml': text(DOCUMENT_XML), [name]: text('x') }),
      );
      expect(reply.status).toBe(400);
      expect(reply.data.message).toMatch(/unsafe entry name/);
    },
  );

  it('an entity declaration (billion laughs) in a part: 400, never expanded', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>';
    const reply = await upload(t, 'laughs.docx', zipSync({ 'word/document.xml': text(laughs) }));
    expect(reply.status).toBe(400);
    expect(reply.data.message).toMatch(/document type declaration \(<!DOCTYPE>\) is refused/);
  });

  it('an external entity in XLIFF: 400', async () => {
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><xliff version="1.2"><file><body><trans-unit id="1"><source>&e;</source></trans-unit></body></file></xliff>';
    const reply = await upload(t, 'x.xlf', xxe);
    expect(reply.status).toBe(400);
    expect(reply.data.message).toMatch(/DOCTYPE/);
  });

  it('not a ZIP, or a package without its main part: 400', async () => {
    expect((await upload(t, 'a.docx', 'plain text')).data.message).toMatch(/not a ZIP package/);
    const noMain = await upload(t, 'a.xlsx', zipSync({ 'word/document.xml': text(DOCUMENT_XML) }));
    expect(noMain.status).toBe(400);
    expect(noMain.data.message).toMatch(/has no 'xl\/workbook.xml' part/);
  });
});
