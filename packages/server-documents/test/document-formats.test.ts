import { pseudoLocalize } from '@glossa/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translateFile } from './document-helpers.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const xa = (text: string) => pseudoLocalize(text, 'en-XA');

describe('text formats through the pseudo engine (en-XA)', () => {
  it('txt: each sentence and line translated, line breaks and blank lines kept', async () => {
    const { text } = await translateFile(t, 'notes.txt', '\ufeffHello world. Goodbye.\n\nSecond line\r\n');
    expect(text).toBe(`\ufeff${xa('Hello world.')} ${xa('Goodbye.')}\n\n${xa('Second line')}\r\n`);
  });

  it('html: text, alt and title translated, lang set to the target; other markup, attributes and script kept byte for byte', async () => {
    const source =
      '<!DOCTYPE html>\n<html lang="en"><head><title>Settings</title><style>p{color:red}</style></head>' +
      '<body><p>Click <a href="/x" title="Help">here</a> now.</p><img src="a.png" alt=\'Save &amp; close\'>' +
      '<q lang="fr" title="42">Bonjour</q><script>var a="keep";</script></body></html>';
    const { text } = await translateFile(t, 'page.html', source);
    const paragraph = xa('Click <g id="1">here</g> now.')
      .replace('<g id="1">', `<a href="/x" title="${xa('Help')}">`)
      .replace('</g>', '</a>');
    expect(text).toBe(
      `<!DOCTYPE html>\n<html lang="en-XA"><head><title>${xa('Settings')}</title><style>p{color:red}</style></head>` +
        `<body><p>${paragraph}</p>[<img src="a.png" alt="${xa('Save & close').replace('&', '&amp;')}">` +
        `<q lang="fr" title="42">${xa('Bonjour').slice(1, -1)}</q><script>var a="keep";</script>]</body></html>`,
    );
  });

  it('srt: cue texts translated, numbers and timings untouched', async () => {
    const srt =
      '1\n00:00:01,000 --> 00:00:02,500\nHello there.\nHow are you?\n\n2\n00:00:03,000 --> 00:00:04,000\nGoodbye.\n';
    const { text } = await translateFile(t, 'movie.srt', srt);
    expect(text).toBe(
      `1\n00:00:01,000 --> 00:00:02,500\n${xa('Hello there.')}\n${xa('How are you?')}\n\n2\n00:00:03,000 --> 00:00:04,000\n${xa('Goodbye.')}\n`,
    );
  });

  it('json: string values translated with placeholders kept; keys, numbers, booleans and indentation kept', async () => {
    const source = `${JSON.stringify(
      {
        title: 'Settings',
        count: 3,
        on: true,
        nested: { save: 'Save {{count}} changes', code: '42' },
        list: ['Yes', 'No'],
      },
      null,
      4,
    )}\n`;
    const { text } = await translateFile(t, 'app.json', source);
    const out = JSON.parse(text);
    expect(out).toEqual({
      title: xa('Settings'),
      count: 3,
      on: true,
      nested: { save: xa('Save <x id="1"/> changes').replace('<x id="1"/>', '{{count}}'), code: '42' },
      list: [xa('Yes'), xa('No')],
    });
    expect(text).toBe(`${JSON.stringify(out, null, 4)}\n`);
  });

  it('xliff 1.2: targets written with inline codes kept, translate="no" left alone, target-language set', async () => {
    const source = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="app">
    <body>
      <trans-unit id="1"><source>Save <g id="b">all</g> files</source></trans-unit>
      <trans-unit id="2"><source>Old text</source><target>Alt</target></trans-unit>
      <trans-unit id="3" translate="no"><source>Brand</source></trans-unit>
      <trans-unit id="4"><source>Hello <x id="p"/> &amp; bye</source></trans-unit>
    </body>
  </file>
</xliff>
`;
    const { text } = await translateFile(t, 'app.xlf', source);
    expect(text).toContain('target-language="en-XA"');
    expect(text).toContain(
      `<source>Save <g id="b">all</g> files</source>\n<target>${xa('Save <g id="1">all</g> files').replace('<g id="1">', '<g id="b">')}</target></trans-unit>`,
    );
    expect(text).toContain(`<source>Old text</source><target>${xa('Old text')}</target>`);
    expect(text).toContain('<trans-unit id="3" translate="no"><source>Brand</source></trans-unit>');
    expect(text).toContain('<x id="p"/>');
    expect(text).not.toContain('<target>Alt</target>');
  });

  it('xliff 2.0: each segment gets its target; trgLang set', async () => {
    const source = `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
<file id="f"><unit id="u"><segment><source>Open the file.</source></segment></unit></file></xliff>`;
    const { text } = await translateFile(t, 'app.xliff', source);
    expect(text).toBe(
      `<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="en-XA">
<file id="f"><unit id="u"><segment><source>Open the file.</source>\n<target>${xa('Open the file.')}</target></segment></unit></file></xliff>`,
    );
  });

  it('xml: text nodes and alt/title attributes translated; structure, other attributes and comments kept', async () => {
    const source =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- build 7 -->\n<help id="h1">\n  <section name="intro" title="Getting started">\n' +
      '    <para>Press <key>Enter</key> to continue.</para>\n    <image href="a.png" alt="A red button"/>\n  </section>\n</help>\n';
    const { text } = await translateFile(t, 'help.xml', source);
    expect(text).toBe(
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- build 7 -->\n<help id="h1">\n  <section name="intro" title="${xa('Getting started')}">\n` +
        `    <para>${xa('Press <g id="1">Enter</g> to continue.').replace('<g id="1">', '<key>').replace('</g>', '</key>')}</para>\n` +
        `    <image href="a.png" alt="${xa('A red button')}"/>\n  </section>\n</help>\n`,
    );
  });

  it('dita: a DOCTYPE naming the DTD is accepted; codeph and translate="no" kept; navtitle translated', async () => {
    const source =
      '<?xml version="1.0"?>\n<!DOCTYPE concept PUBLIC "-//OASIS//DTD DITA Concept//EN" "concept.dtd">\n' +
      '<concept id="c"><title>Install the tool</title><conbody><p>Run <codeph>npm install</codeph> now.</p>' +
      '<p translate="no">Glossa CLI</p><topicref navtitle="Next steps" href="n.dita"/></conbody></concept>\n';
    const { text } = await translateFile(t, 'topic.dita', source);
    expect(text).toBe(
      '<?xml version="1.0"?>\n<!DOCTYPE concept PUBLIC "-//OASIS//DTD DITA Concept//EN" "concept.dtd">\n' +
        `<concept id="c"><title>${xa('Install the tool')}</title><conbody><p>${xa('Run <x id="1"/> now.').replace('<x id="1"/>', '<codeph>npm install</codeph>')}</p>` +
        `<p translate="no">Glossa CLI</p><topicref navtitle="${xa('Next steps')}" href="n.dita"/></conbody></concept>\n`,
    );
  });
});
