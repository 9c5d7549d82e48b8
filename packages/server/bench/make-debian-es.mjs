// Builds bench/data/debian-es.tsv: English → Spanish sentence pairs from the gettext catalogues Debian
// installs under /usr/share/locale/es (msgid → msgstr). Whole sentences only (a capital first, a full stop
// last, no format directives, markup, accelerators or line breaks), one per English text; ordered by a hash
// of the English text, so the same catalogues give the same file. The first 200 are the test set, the next
// 1,500 the translation memory.
//   node bench/make-debian-es.mjs > bench/data/debian-es.tsv
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';

const DIR = '/usr/share/locale/es/LC_MESSAGES';
const SKIP = /^(iso_|xkeyboard|gtk\d0-properties)/;
const TEST = 200;
const MEMORY = 1500;

function parsePo(po) {
  const out = [];
  let cur = null;
  let field = null;
  const unquote = (s) => {
    try {
      return JSON.parse(s);
    } catch {
      return '';
    }
  };
  for (const line of po.split('\n')) {
    if (line.startsWith('msgctxt')) {
      if (cur) out.push(cur);
      cur = { id: '', str: '', ctx: true };
      field = null;
    } else if (line.startsWith('msgid ')) {
      if (cur && !cur.ctx) out.push(cur);
      cur = { id: unquote(line.slice(6)), str: '', ctx: false, plural: false };
      field = 'id';
    } else if (line.startsWith('msgid_plural')) {
      cur.plural = true;
      field = null;
    } else if (line.startsWith('msgstr ')) {
      cur.str = unquote(line.slice(7));
      field = 'str';
    } else if (line.startsWith('msgstr[')) {
      field = null;
    } else if (line.startsWith('"') && cur && field) cur[field] += unquote(line);
  }
  if (cur) out.push(cur);
  return out.filter((entry) => !entry.plural);
}

const SENTENCE = /^\p{Lu}[^%{}<>_&\\\n\t|@$]*\.$/u;
const seen = new Set();
const pairs = [];
for (const file of readdirSync(DIR).sort()) {
  if (!file.endsWith('.mo') || SKIP.test(file)) continue;
  const po = execFileSync('msgunfmt', [`${DIR}/${file}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
  for (const { id, str } of parsePo(po)) {
    if (id.length < 20 || id.length > 140 || !SENTENCE.test(id) || !SENTENCE.test(str)) continue;
    if (id.split(' ').length < 4 || /\.\.\.|\s{2}|\.\S/.test(id) || seen.has(id)) continue;
    seen.add(id);
    pairs.push({ catalogue: file.replace(/\.mo$/, ''), id, str });
  }
}
const hash = (text) => createHash('sha1').update(text).digest('hex');
pairs.sort((a, b) => (hash(a.id) < hash(b.id) ? -1 : 1));
pairs.slice(0, TEST + MEMORY).forEach(({ catalogue, id, str }, index) => {
  process.stdout.write(`${index < TEST ? 'test' : 'memory'}\t${catalogue}\t${id}\t${str}\n`);
});
