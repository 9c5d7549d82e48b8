import { pseudoLocalize } from '@glossa/protocol';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const xa = (text: string) => pseudoLocalize(text, 'en-XA');
const STORY = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<idPkg:Story xmlns:idPkg="http://ns.adobe.com/AdobeInDesign/idml/1.0/packaging" DOMVersion="8.0"><Story Self="u1">
<ParagraphStyleRange AppliedParagraphStyle="ParagraphStyle/Body"><CharacterStyleRange AppliedCharacterStyle="CharacterStyle/$ID/[No character style]"><Content>Open the </Content></CharacterStyleRange><CharacterStyleRange AppliedCharacterStyle="CharacterStyle/$ID/[No character style]" FontStyle="Bold"><Content>File</Content></CharacterStyleRange><CharacterStyleRange AppliedCharacterStyle="CharacterStyle/$ID/[No character style]"><Content> menu.</Content><Br/></CharacterStyleRange></ParagraphStyleRange>
<ParagraphStyleRange AppliedParagraphStyle="ParagraphStyle/Body"><CharacterStyleRange AppliedCharacterStyle="CharacterStyle/$ID/[No character style]"><Content>2024</Content></CharacterStyleRange></ParagraphStyleRange>
</Story></idPkg:Story>`;

it('idml (no IDML reader on npm: checked by unzipping and reading the story XML): stories translated, styles and Br kept, mimetype stored first', async () => {
  const source = zipSync({
    mimetype: [strToU8('application/vnd.adobe.indesign-idml-package'), { level: 0 }],
    'designmap.xml': strToU8(
      '<?xml version="1.0"?><Document DOMVersion="8.0"><idPkg:Story xmlns:idPkg="http://ns.adobe.com/AdobeInDesign/idml/1.0/packaging" src="Stories/Story_u1.xml"/></Document>',
    ),
    'Stories/Story_u1.xml': strToU8(STORY),
    'Resources/Styles.xml': strToU8(
      '<?xml version="1.0"?><idPkg:Styles xmlns:idPkg="http://ns.adobe.com/AdobeInDesign/idml/1.0/packaging"/>',
    ),
  });
  const { bytes, final } = await translateFile(t, 'brochure.idml', source);
  expect(final.billed_characters).toBe('Open the File menu.'.length);
  expect(bytes.subarray(30, 38).toString()).toBe('mimetype');
  expect(bytes.readUInt16LE(8)).toBe(0);
  const parts = unzipSync(bytes);
  expect(Object.keys(parts)).toEqual([
    'mimetype',
    'designmap.xml',
    'Stories/Story_u1.xml',
    'Resources/Styles.xml',
  ]);
  const story = new TextDecoder().decode(parts['Stories/Story_u1.xml']);
  const form = xa('Open the <g id="1">File</g> menu.<x id="2"/>');
  const [before, rest] = form.split('<g id="1">') as [string, string];
  const [bold, after] = rest.split('</g>') as [string, string];
  const plain = 'CharacterStyle/$ID/[No character style]';
  expect(story).toContain(
    `<ParagraphStyleRange AppliedParagraphStyle="ParagraphStyle/Body"><CharacterStyleRange AppliedCharacterStyle="${plain}"><Content>${before}</Content></CharacterStyleRange>` +
      `<CharacterStyleRange AppliedCharacterStyle="${plain}" FontStyle="Bold"><Content>${bold}</Content></CharacterStyleRange>` +
      `<CharacterStyleRange AppliedCharacterStyle="${plain}"><Content>${after.split('<x id="2"/>')[0]}</Content></CharacterStyleRange>` +
      `<CharacterStyleRange AppliedCharacterStyle="${plain}"><Br/></CharacterStyleRange>` +
      `<CharacterStyleRange AppliedCharacterStyle="${plain}"><Content>${after.split('<x id="2"/>')[1]}</Content></CharacterStyleRange></ParagraphStyleRange>`,
  );
  expect(story).toContain('<Content>2024</Content>');
});
