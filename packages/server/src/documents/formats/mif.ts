/**
 * FrameMaker MIF: each `<Para>` is a unit: the `<String>`s of its `<ParaLine>`s are its text, and every
 * other statement inside the lines (`<Font>` changes, `<Char Tab>`, variables, markers, cross-references)
 * travels as an `<x/>` code in place. The translation is written as one `<ParaLine>` (FrameMaker breaks
 * lines again when it opens the file); everything outside paragraph lines is copied unchanged.
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

function paragraphs(statements: readonly Statement[], found: Statement[] = []): Statement[] {
  for (const statement of statements) {
    if (statement.name === 'Para') found.push(statement);
    else paragraphs(statement.children, found);
  }
  return found;
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
    for (const para of paragraphs(parseMif(text))) {
      const lines = para.children.filter((child) => child.name === 'ParaLine');
      if (lines.length === 0) continue;
      const codes: string[] = [];
      let form = '';
      for (const line of lines) {
        for (const child of line.children) {
          const raw = text.slice(child.start, child.end);
          const literal = child.name === 'String' ? /^<String\s*`([\s\S]*)'\s*>$/.exec(raw)?.[1] : undefined;
          if (literal !== undefined) form += escapeXml(decodeMifString(literal));
          else {
            codes.push(raw);
            form += `<x id="${codes.length}"/>`;
          }
        }
      }
      const first = lines[0]!;
      const end = lines.at(-1)!.end;
      template.literal(text.slice(last, first.start));
      template.text(form, 'xml', (output) => {
        const body = parseInline(output)
          .map((piece) =>
            piece.kind === 'text'
              ? `<String \`${encodeMifString(piece.text)}'>`
              : piece.kind === 'standalone'
                ? (codes[piece.id - 1] ?? '')
                : '',
          )
          .join(' ');
        return `<ParaLine ${body}>`;
      });
      last = end;
    }
    template.literal(text.slice(last));
    return { texts: template.texts, rebuild: (outputs) => encodeText(template.fill(outputs), bom) };
  },
};
