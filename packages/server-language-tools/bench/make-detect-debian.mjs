// Builds bench/data/detect-debian.tsv from the gettext catalogues Debian installs under /usr/share/locale.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';

const SUPPORTED =
  'en de fr es pt it nl pl ru zh ja bg cs da el et fi hu lt lv ro sk sl sv tr id uk ko nb ar vi he th'.split(
    ' ',
  );
const UNSUPPORTED = 'fa hr af eo gl ca eu is sq cy ga mk hi ka az be ta sr'.split(' ');
const DIR = { zh: 'zh_CN', pt: 'pt_BR', en: 'de' };
const SKIP = /^(iso_|xkeyboard|gtk\d0-properties)/;
function parsePo(po) {
  const out = [];
  let cur = null,
    field = null;
  const unq = (s) => {
    try {
      return JSON.parse(s);
    } catch {
      return '';
    }
  };
  for (const line of po.split('\n')) {
    if (line.startsWith('msgid ')) {
      if (cur) out.push(cur);
      cur = { id: unq(line.slice(6)), str: '' };
      field = 'id';
    } else if (line.startsWith('msgstr ')) {
      cur.str = unq(line.slice(7));
      field = 'str';
    } else if (line.startsWith('msgid_plural') || line.startsWith('msgstr[')) {
      field = null;
      if (line.startsWith('msgstr[0]')) {
        cur.str = unq(line.slice(10));
        field = 'str';
      }
    } else if (line.startsWith('"') && cur && field) {
      cur[field] += unq(line);
    } else if (line.startsWith('msgctxt')) {
      if (cur) out.push(cur);
      cur = null;
      field = null;
    }
  }
  if (cur) out.push(cur);
  return out;
}
function clean(s) {
  return s
    .replace(/<[^>]+>/g, ' ')
    .replace(/%(\d+\$)?[-#0 +']*\d*(\.\d+)?[hlLqjzt]*[a-zA-Z%]/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/[_&](?=\p{L})/gu, '')
    .replace(/[`'"„“”«»「」]\s*[`'"„“”«»「」]|[`「」]/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s:;,.-]+|[\s:;,-]+$/g, '')
    .trim();
}
const hash = (s) => createHash('sha1').update(s).digest('hex');
const rows = [];
for (const lang of [...SUPPORTED, ...UNSUPPORTED]) {
  const dir = `/usr/share/locale/${DIR[lang] ?? lang}/LC_MESSAGES`;
  if (!existsSync(dir)) {
    console.error('no', lang);
    continue;
  }
  const seen = new Set();
  const texts = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.mo') && !SKIP.test(f))) {
    let po;
    try {
      po = execFileSync('msgunfmt', [`${dir}/${file}`], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      continue;
    }
    for (const { id, str } of parsePo(po)) {
      if (!id || !str) continue;
      const text = clean(lang === 'en' ? id : str);
      if (lang !== 'en' && clean(id) === text) continue;
      if (seen.has(text) || !/\p{L}{2}/u.test(text) || /[\\/=@]|https?:|--/.test(text)) continue;
      const letters = (text.match(/\p{L}/gu) ?? []).length;
      if (letters < text.length * 0.6) continue;
      seen.add(text);
      texts.push({ text, file, key: hash(`${lang}\t${id}`) });
    }
  }
  texts.sort((a, b) => (a.key < b.key ? -1 : 1));
  const short = texts
    .filter(
      (t) =>
        t.text.length >= 15 &&
        t.text.length <= 50 &&
        (/\p{sc=Han}|\p{sc=Hiragana}|\p{sc=Katakana}|\p{sc=Thai}/u.test(t.text) ||
          t.text.split(' ').length >= 3),
    )
    .slice(0, 25);
  const long = texts.filter((t) => t.text.length >= 100 && t.text.length <= 400).slice(0, 10);
  const label = SUPPORTED.includes(lang) ? lang : `unsupported:${lang}`;
  for (const t of short) rows.push(`${label}\tshort\t${t.file.replace(/\.mo$/, '')}\t${t.text}`);
  for (const t of long) rows.push(`${label}\tlong\t${t.file.replace(/\.mo$/, '')}\t${t.text}`);
  console.error(lang, short.length, long.length);
}
process.stdout.write(rows.join('\n') + '\n');
