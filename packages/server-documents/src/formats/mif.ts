/**
 * FrameMaker MIF: each `<Para>` is a unit: the `<String>`s of its `<ParaLine>`s are its text, and every
 * other statement inside the lines (`<Font>` changes, `<Char Tab>`, variables, markers, cross-references)
 * travels as an `<x/>` code in place. The translation is written back over the same `<ParaLine>`s, each
 * with about the share of the text its source line had, broken between words, with its own indentation and
 * `<TextRectID>` (FrameMaker breaks lines again when it opens the file); everything else is copied unchanged.
 * The text of reference pages (mapping tables) is FrameMaker's data, not the document's: never translated.
 */
import { type DocumentFormat, DocumentFormatError, decodeText, encodeText } from './format.js';
import { escapeXml, parseInline } from './inline.js';
import { Template } from './template.js';

interface Statement {
  readonly name: string;
  readonly start: number;
  end: number;
  readonly children: Statement[];
}

const MAX_MIF_DEPTH = 256;

/** The statements of a MIF file (`<Name … >`), nested, with their byte ranges. */
function parseMif(text: string): Statement[] {
  const root: Statement[] = [];
  const stack: Statement[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '`') {
      i++;
      while (i < text.length && text[i] !== "'") i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) throw new DocumentFormatError('The MIF document has a string that never ends.');
      i++;
    } else if (char === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end + 1;
    } else if (char === '<') {
      const name = /^<([A-Za-z][\w]*)/.exec(text.slice(i, i + 64))?.[1];
      if (!name)
        throw new DocumentFormatError(`The MIF document has a '<' without a statement name at offset ${i}.`);
      if (stack.length >= MAX_MIF_DEPTH)
        throw new DocumentFormatError(`The MIF document nests deeper than ${MAX_MIF_DEPTH}.`);
      const statement: Statement = { name, start: i, end: -1, children: [] };
      (stack.at(-1)?.children ?? root).push(statement);
      stack.push(statement);
      i += name.length + 1;
    } else if (char === '>') {
      const statement = stack.pop();
      if (!statement) throw new DocumentFormatError(`The MIF document has an unmatched '>' at offset ${i}.`);
      statement.end = i + 1;
      i++;
    } else i++;
  }
  if (stack.length > 0)
    throw new DocumentFormatError(`The MIF statement <${stack.at(-1)!.name}> never ends.`);
  if (!/^<MIFFile\b/.test(text.trimStart()))
    throw new DocumentFormatError('The MIF document does not start with <MIFFile>.');
  return root;
}

/** The text of a MIF string literal (`` `Save \q now\>' ``). */
function decodeMifString(literal: string): string {
  return literal.replace(/\\(x[0-9a-fA-F]{2} ?|.)/g, (_whole, sequence: string) => {
    if (sequence[0] === 'x') return String.fromCharCode(Number.parseInt(sequence.slice(1, 3), 16));
    return (
      ({ t: '\t', '>': '>', q: "'", Q: '`', '\\': '\\' } as Record<string, string>)[sequence] ?? sequence
    );
  });
}

function encodeMifString(text: string): string {
  return text.replace(
    /[\\>'`\t]/g,
    (char) => ({ '\\': '\\\\', '>': '\\>', "'": '\\q', '`': '\\Q', '\t': '\\t' })[char]!,
  );
}

function paragraphs(
  statements: readonly Statement[],
  skipped: ReadonlySet<Statement>,
  found: Statement[] = [],
): Statement[] {
  for (const statement of statements) {
    if (skipped.has(statement)) continue;
    if (statement.name === 'Para') found.push(statement);
    else paragraphs(statement.children, skipped, found);
  }
  return found;
}

/** The value of a simple statement (`<ID 11>` → `11`, ``<TblTag `Mapping Table'>`` → `` `Mapping Table' ``). */
function statementValue(text: string, statement: Statement): string {
  return text.slice(statement.start + statement.name.length + 1, statement.end - 1).trim();
}

function descendants(statement: Statement, name: string, found: Statement[] = []): Statement[] {
  for (const child of statement.children) {
    if (child.name === name) found.push(child);
    descendants(child, name, found);
  }
  return found;
}

/**
 * What FrameMaker keeps for itself, not for readers: the text flows of reference pages (the HTML and XML
 * mapping tables, whose cells name formats, ``P:Mapping Table Cell``, and the elements they become) and the
 * tables anchored in them, and any table in the `Mapping Table` format. (The catalogues — paragraph and
 * character formats, variables, cross-reference formats — hold no `<Para>`, so they are never translated.)
 */
function frameMakerData(text: string, root: readonly Statement[]): Set<Statement> {
  const referenceRects = new Set(
    root
      .filter(
        (page) =>
          page.name === 'Page' &&
          page.children.some(
            (child) => child.name === 'PageType' && statementValue(text, child) === 'ReferencePage',
          ),
      )
      .flatMap((page) => descendants(page, 'TextRect'))
      .flatMap((rect) =>
        rect.children.filter((child) => child.name === 'ID').map((id) => statementValue(text, id)),
      ),
  );
  const skipped = new Set<Statement>();
  const tables = new Set<string>();
  for (const flow of root.filter((statement) => statement.name === 'TextFlow')) {
    const rects = descendants(flow, 'TextRectID').map((id) => statementValue(text, id));
    if (!rects.some((id) => referenceRects.has(id))) continue;
    skipped.add(flow);
    for (const anchor of descendants(flow, 'ATbl')) tables.add(statementValue(text, anchor));
  }
  for (const tbls of root.filter((statement) => statement.name === 'Tbls'))
    for (const table of tbls.children.filter((child) => child.name === 'Tbl')) {
      const id = table.children.find((child) => child.name === 'TblID');
      const tag = table.children.find((child) => child.name === 'TblTag');
      if (
        (id && tables.has(statementValue(text, id))) ||
        (tag && /^`Mapping Table'$/.test(statementValue(text, tag)))
      )
        skipped.add(table);
    }
  return skipped;
}

/** Statements that place a line (in a text frame): they stay at the start of their line, not codes. */
const LINE_PLACEMENT = new Set(['TextRectID']);

/** The parts of a source `<ParaLine>` kept around the text a translation puts in it. */
interface LineShell {
  readonly prefix: string;
  readonly fixed: readonly string[];
  readonly separator: string;
  readonly suffix: string;
  /** Characters of text the source line held. */
  readonly length: number;
}

function shellOf(text: string, line: Statement): LineShell {
  const children = line.children;
  const raw = (child: Statement) => text.slice(child.start, child.end);
  const opening = text.slice(line.start, children[0]?.start ?? line.start + '<ParaLine'.length);
  const between = children.length > 1 ? text.slice(children[0]!.end, children[1]!.start) : '';
  const length = children
    .map((child) =>
      child.name === 'String' ? /^<String\s*`([\s\S]*)'\s*>$/.exec(raw(child))?.[1] : undefined,
    )
    .reduce((sum, literal) => sum + (literal === undefined ? 0 : decodeMifString(literal).length), 0);
  return {
    prefix: children.length > 0 ? opening : '<ParaLine ',
    fixed: children.filter((child) => LINE_PLACEMENT.has(child.name)).map(raw),
    separator: /^\s+$/.test(between) ? between : ' ',
    suffix: children.length > 0 ? text.slice(children.at(-1)!.end, line.end) : '>',
    length,
  };
}

/**
 * The translation spread over the source's lines: each line gets about the share of the text its source
 * line had, broken between words (a word's trailing space stays on its line, as FrameMaker writes it);
 * codes stay where they are in the flow; each line keeps its own indentation and placement statements.
 */
function spreadOverLines(output: string, codes: readonly string[], shells: readonly LineShell[]): string[] {
  const tokens: { text?: string; code?: string }[] = [];
  for (const piece of parseInline(output)) {
    if (piece.kind === 'text')
      for (const [word] of piece.text.matchAll(/\S+\s*|\s+/g)) tokens.push({ text: word });
    else if (piece.kind === 'standalone') tokens.push({ code: codes[piece.id - 1] ?? '' });
  }
  const total = tokens.reduce((sum, token) => sum + (token.text?.length ?? 0), 0);
  const source = shells.reduce((sum, shell) => sum + shell.length, 0);
  let share = 0;
  const budgets = shells.map((shell) => {
    share += shell.length;
    return source === 0 ? total : (total * share) / source;
  });
  const lines: { items: string[]; text: string; chars: number }[] = shells.map(() => ({
    items: [],
    text: '',
    chars: 0,
  }));
  let index = 0;
  let used = 0;
  const flush = (line: (typeof lines)[number]) => {
    if (line.text !== '') line.items.push(`<String \`${encodeMifString(line.text)}'>`);
    line.text = '';
  };
  for (const token of tokens) {
    if (token.code !== undefined) {
      flush(lines[index]!);
      lines[index]!.items.push(token.code);
      continue;
    }
    const length = token.text!.length;
    while (
      index < shells.length - 1 &&
      used + length / 2 > budgets[index]! &&
      (lines[index]!.chars > 0 || shells[index]!.length === 0)
    ) {
      flush(lines[index]!);
      index++;
    }
    lines[index]!.text += token.text;
    lines[index]!.chars += length;
    used += length;
  }
  lines.forEach(flush);
  return lines.map((line, i) => {
    const shell = shells[i]!;
    return `${shell.prefix}${[...shell.fixed, ...line.items].join(shell.separator)}${shell.suffix}`;
  });
}

export const mifFormat: DocumentFormat = {
  name: 'MIF',
  maxBytes: 10 * 1024 * 1024,
  contentType: 'application/vnd.mif',
  minimumBilled: 0,
  extract(bytes) {
    const { text, bom } = decodeText(bytes, 'MIF');
    const template = new Template();
    let last = 0;
    const root = parseMif(text);
    for (const para of paragraphs(root, frameMakerData(text, root))) {
      const lines = para.children.filter((child) => child.name === 'ParaLine');
      if (lines.length === 0) continue;
      const codes: string[] = [];
      let form = '';
      for (const line of lines) {
        for (const child of line.children) {
          if (LINE_PLACEMENT.has(child.name)) continue;
          const raw = text.slice(child.start, child.end);
          const literal = child.name === 'String' ? /^<String\s*`([\s\S]*)'\s*>$/.exec(raw)?.[1] : undefined;
          if (literal !== undefined) form += escapeXml(decodeMifString(literal));
          else {
            codes.push(raw);
            form += `<x id="${codes.length}"/>`;
          }
        }
      }
      const shells = lines.map((line) => shellOf(text, line));
      const gaps = lines.slice(1).map((line, i) => text.slice(lines[i]!.end, line.start));
      template.literal(text.slice(last, lines[0]!.start));
      template.text(form, 'xml', (output) =>
        spreadOverLines(output, codes, shells)
          .map((line, i) => (i === 0 ? line : `${gaps[i - 1]}${line}`))
          .join(''),
      );
      last = lines.at(-1)!.end;
    }
    template.literal(text.slice(last));
    return { texts: template.texts, rebuild: (outputs) => encodeText(template.fill(outputs), bom) };
  },
};
