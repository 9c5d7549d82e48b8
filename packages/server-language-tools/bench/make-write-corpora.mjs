// Builds the learner-corpus fixtures of the write benchmark (test/fixtures/write/*.tsv) from public GitHub
// repositories brought here as bare git directories (the `fetch` tool: /work/.mirror/<owner>+<name>/repo, or
// MIRROR=...). Sources and licences: test/fixtures/write/README.md. Each line: learner<TAB>reference[<TAB>...].
// Samples are chosen by a hash of the essay, so the same mirrors give the same files.
// Run: node bench/make-write-corpora.mjs [--only=cows-l2h,merlin-de,valico-it,ugcnormal-pt,merlin-it]
//   [--merlin-it=DIR]
// MERLIN Italian (merlin-it) is read from DIR (or MERLIN_IT=DIR) holding it-merlin-orig-dev.md and
// it-merlin-ref1-dev.md as kept in github.com/arshiya692002/-GEC-T5-Multilingual, whose name the fetch tool cannot
// take: they are read with the read_file tool and saved there (test/fixtures/write/README.md). Without DIR that
// step is skipped.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const MIRROR = process.env.MIRROR ?? '/work/.mirror';
const option = (name) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) || undefined;
const only = option('only')?.split(',');
/** Whether a step (a corpus) is to be built: all unless --only names some. */
const step = (name) => only === undefined || only.includes(name);
const OUT = new URL('../test/fixtures/write/', import.meta.url);
const git = (repo, ...args) =>
  execFileSync('git', [`--git-dir=${MIRROR}/${repo}/repo`, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
const hash = (text) => createHash('sha1').update(text).digest('hex');
const byHash = (items, key) => [...items].sort((a, b) => hash(key(a)).localeCompare(hash(key(b))));
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*|\S/gu;
const tokens = (text) => text.match(TOKEN) ?? [];
const words = (text) => (text.match(/\p{L}+/gu) ?? []).length;
const clean = (text) => text.replace(/\s+/g, ' ').trim();
/** Sentences of a text: lines, then full stops, question and exclamation marks followed by a space. */
const sentences = (text) =>
  text
    .split(/\n+/)
    .flatMap((line) => clean(line).split(/(?<=[.!?…])\s+(?=\S)/u))
    .filter((s) => s !== '');
/** Tokenized text (`Haus , und`) to plain spacing (`Haus, und`). */
const detokenize = (text) =>
  text
    .replace(/\s+([.,;:!?)\]»“])/gu, '$1')
    .replace(/([([«„])\s+/gu, '$1')
    .trim();
/**
 * Aligns the sentences of a learner essay to the tokens of its target hypothesis with a token LCS over the whole
 * essay: each learner sentence takes the target tokens up to the target position of its last aligned token, and
 * the full stops the target adds before the next aligned token (a full stop the learner left out); the last
 * sentence takes the rest. Returns, per sentence, its target token range [from, to), its token count and how many
 * of its tokens were aligned. `same` compares a learner token with a target token.
 */
const alignSentences = (parts, target, same = (a, b) => a === b) => {
  const learnerTokens = parts.map(tokens);
  const flat = learnerTokens.flat();
  const n = flat.length;
  const m = target.length;
  const lcs = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = same(flat[i], target[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const aligned = new Int32Array(n).fill(-1);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (same(flat[i], target[j])) {
      aligned[i++] = j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  const result = [];
  let from = 0;
  let targetFrom = 0;
  for (const [k, part] of parts.entries()) {
    const to = from + learnerTokens[k].length;
    let targetTo = targetFrom;
    let matched = 0;
    for (let i = from; i < to; i++) {
      if (aligned[i] >= 0) {
        targetTo = aligned[i] + 1;
        matched++;
      }
    }
    if (k === parts.length - 1) targetTo = m;
    else {
      let next = to;
      while (next < n && aligned[next] < 0) next++;
      const limit = next < n ? aligned[next] : m;
      while (targetTo < limit && /^[.!?]$/.test(target[targetTo])) targetTo++;
    }
    result.push({ part, count: learnerTokens[k].length, matched, from: targetFrom, to: targetTo });
    from = to;
    targetFrom = targetTo;
  }
  return result;
};
const write = (name, header, rows) => {
  const lines = rows.map((cells) => cells.map((c) => c.replace(/[\t\n]/g, ' ')).join('\t'));
  writeFileSync(new URL(name, OUT), `# ${header}\n${lines.join('\n')}\n`);
  console.log(`${name}: ${rows.length} sentences`);
};

// --- COWS-L2H (Spanish): a held-out slice, essays other than those of bench/data/cows-l2h.tsv ----------------
if (step('cows-l2h')) {
  const repo = 'ucdaviscl+cowsl2h';
  const tuned = new Set(
    readFileSync(new URL('data/cows-l2h.tsv', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => line.split('\t')[0]),
  );
  const paths = git(repo, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n');
  const essays = new Map(paths.filter((p) => p.includes('/essays/')).map((p) => [p.toLowerCase(), p]));
  const references = new Map();
  for (const path of paths.filter((p) => p.includes('/corrected/'))) {
    const essay = path
      .replace('/corrected/', '/essays/')
      .replace(/( \(1\))?\.corrected\.txt$/, '.txt')
      .toLowerCase();
    if (!essays.has(essay)) continue;
    references.set(essay, [...(references.get(essay) ?? []), path]);
  }
  const rows = [];
  const fresh = [];
  for (const essay of byHash([...references.keys()], (key) => key)) {
    if (fresh.length >= 800) break;
    const source = sentences(git(repo, 'show', `HEAD:${essays.get(essay)}`));
    if (source.some((s) => words(s) >= 5 && tuned.has(s))) continue;
    const refs = references
      .get(essay)
      .map((path) => sentences(git(repo, 'show', `HEAD:${path}`)))
      .filter((ref) => ref.length === source.length);
    if (refs.length === 0) continue;
    const into = rows.length < 800 ? rows : fresh;
    source.forEach((s, i) => {
      if (words(s) >= 3) into.push([s, ...refs.map((ref) => ref[i])]);
    });
  }
  write(
    'cows-l2h-heldout.tsv',
    'COWS-L2H (ucdaviscl/cowsl2h, Apache-2.0), held out: essays none of whose sentences is in bench/data/cows-l2h.tsv; split into sentences, kept where a corrected version splits into as many; every corrected version of the essay is a reference. learner<TAB>corrected[<TAB>second correction]',
    rows,
  );
  write(
    'cows-l2h-fresh.tsv',
    'COWS-L2H (ucdaviscl/cowsl2h, Apache-2.0), a second held-out slice, the essays after those of cows-l2h-heldout.tsv in hash order, set aside before any rule of this round was written and not looked at while writing them. learner<TAB>corrected[<TAB>second correction]',
    fresh,
  );
}

// --- MERLIN (German): learner texts and their minimal target hypotheses (TH1) ---------------------------------
if (step('merlin-de')) {
  // MERLIN v1.1 text files as one zip, kept in ESC-Linguistic-Baselines/De_Np_Kongru's history
  // (app_resources/data/corpus/raw_text.zip); German only.
  const zip = execFileSync(
    'git',
    [
      `--git-dir=${MIRROR}/ESC-Linguistic-Baselines+De_Np_Kongru/repo`,
      'cat-file',
      'blob',
      '33674fd7fce85a77d1705ab5307c4bc6cad20595',
    ],
    { maxBuffer: 1 << 26 },
  );
  const tmp = '/tmp/merlin-raw-text.zip';
  writeFileSync(tmp, zip);
  const names = execFileSync('unzip', ['-Z1', tmp], { encoding: 'utf8' })
    .split('\n')
    .filter((n) => n.endsWith('.txt'));
  const section = (text, title) => {
    const start = text.indexOf(title);
    if (start < 0) return '';
    const body = text.slice(start + title.length);
    const end = body.indexOf('----------------');
    return end < 0 ? body : body.slice(0, end);
  };
  const tune = [];
  const heldout = [];
  const fresh = [];
  let index = 0;
  for (const name of byHash(names, (n) => n)) {
    if (tune.length >= 300 && heldout.length >= 300 && fresh.length >= 300) break;
    const text = execFileSync('unzip', ['-p', tmp, name], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const learner = section(text, 'Learner text:');
    const target = tokens(section(text, 'Target hypothesis 1:'));
    if (!learner.trim() || target.length === 0) continue;
    const rows = [];
    for (const { part, count, matched, from, to } of alignSentences(sentences(learner), target)) {
      const reference = detokenize(target.slice(from, to).join(' '));
      if (words(part) >= 3 && matched >= count / 2 && reference !== '') rows.push([part, reference]);
    }
    // The second held-out slice takes the essays after those of the first two.
    const into = tune.length < 300 || heldout.length < 300 ? (index++ % 2 === 0 ? tune : heldout) : fresh;
    if (into.length < 300) into.push(...rows.slice(0, 300 - into.length));
  }
  const header =
    'MERLIN German (CC BY-SA 4.0; learner texts and minimal target hypotheses TH1 of MERLIN v1.1, from ESC-Linguistic-Baselines/De_Np_Kongru raw_text.zip); essays sampled by a hash of their file name, alternately into the tuning and the held-out slice, then into a second held-out slice; learner sentences aligned to TH1 by a token LCS over the essay. learner<TAB>TH1';
  write('merlin-de-tune.tsv', `${header} (tuning slice)`, tune);
  write('merlin-de-heldout.tsv', `${header} (held-out slice)`, heldout);
  write(
    'merlin-de-fresh.tsv',
    `${header} (a second held-out slice, set aside before any rule of this round was written and not looked at while writing them)`,
    fresh,
  );
}

// --- MERLIN (Italian): MultiGEC-2025's dev part, learner essays and their minimal target hypotheses (ref1) ----
if (step('merlin-it')) {
  // it-merlin-orig-dev.md (github.com/arshiya692002/-GEC-T5-Multilingual, local_eval/errant/ref/) and
  // it-merlin-ref1-dev.md (italian/Merlin/), commit 6a9fcd99, read with the read_file tool into DIR.
  const dir = option('merlin-it') ?? (process.env.MERLIN_IT || undefined);
  if (dir === undefined) {
    console.log(
      'merlin-it-dev.tsv: skipped (give --merlin-it=DIR or MERLIN_IT=DIR, see the head of this file)',
    );
  } else {
    /** The essays of a MultiGEC file: `### essay_id = ID` lines, each followed by its text. */
    const essays = (file) =>
      new Map(
        readFileSync(`${dir}/${file}`, 'utf8')
          .split(/^### essay_id = /m)
          .slice(1)
          .map((block) => [
            block.slice(0, block.indexOf('\n')).trim(),
            block.slice(block.indexOf('\n') + 1).trim(),
          ]),
      );
    const learner = essays('it-merlin-orig-dev.md');
    const targets = essays('it-merlin-ref1-dev.md');
    // MERLIN's transcription marks (an unreadable word, one the annotator could not reconstruct, a hidden name, a
    // drawn symbol) are no text anyone writes: sentences with one are left out.
    const MARK = /-(?:unreadable|incomp|hidden|symbol)-/;
    // Some learners write in capitals, which TH1 writes in lower case: tokens align whatever their case.
    const sameWord = (a, b) => a.toLowerCase() === b.toLowerCase();
    const rows = [];
    let marked = 0;
    let unaligned = 0;
    for (const [id, text] of learner) {
      const target = targets.get(id);
      if (target === undefined) throw new Error(`MERLIN it: essay ${id} has no ref1`);
      const found = [...target.matchAll(TOKEN)];
      for (const { part, count, matched, from, to } of alignSentences(
        sentences(text),
        found.map((token) => token[0]),
        sameWord,
      )) {
        // The reference is ref1's own text from the first to the last token taken (its spacing kept).
        const reference =
          from < to ? target.slice(found[from].index, found[to - 1].index + found[to - 1][0].length) : '';
        if (words(part) < 3) continue;
        if (matched < count / 2 || reference === '') unaligned++;
        else if (MARK.test(part) || MARK.test(reference)) marked++;
        else rows.push([part, reference]);
      }
    }
    if (targets.size !== learner.size) throw new Error('MERLIN it: the two files hold different essays');
    write(
      'merlin-it-dev.tsv',
      `MERLIN Italian (CC BY-SA 4.0; MERLIN v1.1 as split for MultiGEC-2025, its dev part: ${learner.size} essays of it-merlin-orig-dev.md and their minimal target hypotheses it-merlin-ref1-dev.md, from github.com/arshiya692002/-GEC-T5-Multilingual at 6a9fcd99, read with the read_file tool); every essay in file order; learner sentences aligned to ref1 by a token LCS over the essay (case ignored); sentences of fewer than 3 words left out, and ${unaligned} with less than half their tokens aligned and ${marked} with a transcription mark (-unreadable-, -incomp-, -hidden-, -symbol-). Never looked at while writing correction rules. learner<TAB>ref1`,
      rows,
    );
  }
}

// --- VALICO-UD (Italian): learner sentences with their error annotation (original and correction) -------------
if (step('valico-it')) {
  const conllu = git('UniversalDependencies+UD_Italian-Valico', 'show', 'HEAD:it_valico-ud-test.conllu');
  const tune = [];
  const heldout = [];
  for (const block of conllu.split(/\n\n+/)) {
    const id = block.match(/^# sent_id = (\S+)/m)?.[1];
    const text = block.match(/^# text = (.*)$/m)?.[1];
    let corrected = block.match(/^# err = (.*)$/m)?.[1];
    if (!id || !text || corrected === undefined) continue;
    // Innermost annotations first: <TAG>[span]<i>original</i><c>correction</c></TAG>, "_" meaning nothing.
    const annotation = /<([A-Za-z]+)>[^<]*<i>([^<]*)<\/i><c>([^<]*)<\/c><\/\1>/u;
    while (annotation.test(corrected))
      corrected = corrected.replace(annotation, (_, _tag, _i, c) => (c === '_' ? '' : c));
    corrected = clean(corrected.replace(/\s+([.,;:!?])/g, '$1'));
    if (corrected.includes('<') || words(text) < 3) continue;
    const textNumber = Number(id.split('-')[0]);
    (textNumber % 2 === 1 ? tune : heldout).push([text, corrected]);
  }
  const header =
    "VALICO-UD (UniversalDependencies/UD_Italian-Valico, CC BY-SA 4.0): learner Italian, 36 texts; the reference is the treebank's own error annotation (`# err`) with every correction applied; odd-numbered texts tune, even-numbered are held out. learner<TAB>corrected";
  write('valico-it-tune.tsv', `${header} (tuning slice)`, tune);
  write('valico-it-heldout.tsv', `${header} (held-out slice)`, heldout);
}

// --- UGCNormal (Brazilian Portuguese): product reviews with their misspellings annotated ---------------------
/**
 * A UGCNormal line with every annotation applied: `wrong*TAG[right]`, `_` in `right` meaning a space. What is
 * glued before the wrong word after a bracket or punctuation stays ("(casio*C[Casio])", "falsa..até*CC[Até]");
 * "c/*I[com]" and "+r*C[+R]" are replaced whole. A tag after a space belongs to the word before it: a second
 * annotation of a word already corrected ("otimo*Z[ótimo] *CC[Ótimo]", the fix then the capital of a sentence
 * start) or an annotator's stray space ("telefonicos *O[telefônicos]"). A glued-words tag (`*S`) alone after a
 * space has no word before it and is left out.
 */
function applyTags(annotated) {
  const tagged = new RegExp(`(\\S+?)(?:\\*|\\s+\\*(?=(?:CC|C|O|Z|I)\\[))${TAG.source.slice(2)}`, 'u');
  const glued = /^.*[(,.;:!?](?=[\p{L}\p{N}])/u;
  let text = annotated;
  while (tagged.test(text))
    text = text.replace(
      tagged,
      (_, wrong, right, braced) => (wrong.match(glued)?.[0] ?? '') + (right ?? braced).replace(/_/g, ' '),
    );
  return text.replace(new RegExp(`\\s*${TAG.source}`, 'gu'), '');
}

/**
 * A UGCNormal tag, `*O[right]`, with the annotators' slips: a lower-case tag (`*c[Pinnacle]`), a stray brace
 * (`*C{[LG]`, `*{Wi-Fi)`).
 */
const TAG = /\*(?:[A-Za-z]*\{?\[([^\]]*)\]|\{([^)]*)\))/;

if (step('ugcnormal-pt')) {
  const repo = 'avanco+UGCNormal';
  const reviews = ['Buscape_anotado_60_reviews.txt', 'ML_anotado_60_reviews.txt'].flatMap((file) =>
    git(repo, 'show', `HEAD:annotation_data/${file}`)
      .split(/^(?=>>> )/m)
      .map((review) => review.trim())
      .filter((review) => review.startsWith('>>>')),
  );
  const tune = [];
  const heldout = [];
  for (const [index, review] of byHash(reviews, (r) => r.split('\n')[0]).entries()) {
    for (const line of review.split('\n').slice(1)) {
      if (/^\s*#/.test(line)) continue;
      const annotated = clean(line.replace(/^\s*-\s*/, ''));
      const source = clean(
        annotated.replace(/\s*\*P\[[^\]]*\]/g, '').replace(new RegExp(TAG.source, 'gu'), ''),
      );
      const reference = clean(applyTags(annotated.replace(/\s*\*P\[([^\]]*)\]/g, '$1')));
      if (words(source) >= 3) (index % 2 === 0 ? tune : heldout).push([source, reference]);
    }
  }
  const header =
    'UGCNormal (avanco/UGCNormal annotation_data, CC BY-NC 3.0): 120 Brazilian Portuguese product reviews (Buscapé, Mercado Livre) with misspellings, real-word errors, case, slang and missing full stops annotated; the reference applies every annotation; reviews sampled by a hash of their header, alternately into the tuning and the held-out slice. Native writers, not learners. review line<TAB>corrected';
  write('ugcnormal-pt-tune.tsv', `${header} (tuning slice)`, tune);
  write('ugcnormal-pt-heldout.tsv', `${header} (held-out slice)`, heldout);
}
