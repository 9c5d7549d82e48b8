/**
 * Splitting a segment source that is too large for one request: at sentence boundaries outside any
 * code, then at spaces, then anywhere outside a code; parts are rejoined in order after translation.
 */

/** Offsets where `source` may be cut: outside tags, entities and `<g>` pairs, not inside a surrogate pair. */
function safeCuts(source: string): boolean[] {
  const ok = new Array<boolean>(source.length + 1).fill(false);
  let depth = 0;
  let inTag = false;
  let inEntity = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    ok[i] = !inTag && !inEntity && depth === 0 && !(c >= '\udc00' && c <= '\udfff');
    if (c === '<') {
      inTag = true;
      if (source[i + 1] === 'g') depth++;
      else if (source.startsWith('</g', i)) depth--;
    } else if (c === '>' && inTag) inTag = false;
    else if (c === '&') inEntity = true;
    else if (c === ';' && inEntity) inEntity = false;
  }
  ok[source.length] = true;
  return ok;
}

const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));

/** `prefix[i]` = JSON bytes of `source.slice(0, i)` without the quotes, so any slice costs O(1). */
function jsonPrefix(source: string): Float64Array {
  const prefix = new Float64Array(source.length + 1);
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    let bytes: number;
    if (code >= 0xd800 && code <= 0xdbff) {
      const low = source.charCodeAt(i + 1);
      bytes = low >= 0xdc00 && low <= 0xdfff ? 4 : 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      const high = source.charCodeAt(i - 1);
      bytes = high >= 0xd800 && high <= 0xdbff ? 0 : 6;
    } else bytes = jsonBytes(source[i]!) - 2;
    prefix[i + 1] = prefix[i]! + bytes;
  }
  return prefix;
}

function cutsAt(source: string, ok: boolean[], kind: 'sentence' | 'word' | 'any'): number[] {
  if (kind === 'any') return ok.flatMap((good, i) => (good && i > 0 && i < source.length ? [i] : []));
  const found: number[] = [];
  if (kind === 'sentence') {
    for (const { index } of new Intl.Segmenter('en', { granularity: 'sentence' }).segment(source)) {
      if (index > 0 && ok[index]) found.push(index);
    }
  } else {
    for (let i = 1; i < source.length; i++)
      if (ok[i] && /\s/.test(source[i - 1]!) && !/\s/.test(source[i]!)) found.push(i);
  }
  return found;
}

/**
 * Cuts `source` into parts whose JSON-encoded size is at most `maxBytes` each. Parts concatenate back to
 * `source`. Throws `RangeError` if no safe cut can make a part small enough (one code larger than a request).
 */
export function splitSource(source: string, maxBytes: number): string[] {
  if (jsonBytes(source) <= maxBytes) return [source];
  const ok = safeCuts(source);
  const prefix = jsonPrefix(source);
  const size = (from: number, to: number) => prefix[to]! - prefix[from]! + 2;
  for (const kind of ['sentence', 'word', 'any'] as const) {
    const cuts = cutsAt(source, ok, kind);
    const parts: string[] = [];
    let start = 0;
    let last = 0; // last cut that keeps the current part small enough
    let fits = true;
    for (const cut of [...cuts, source.length]) {
      if (size(start, cut) <= maxBytes) {
        last = cut;
        continue;
      }
      if (last <= start) {
        fits = false;
        break;
      }
      parts.push(source.slice(start, last));
      start = last;
      if (size(start, cut) > maxBytes) {
        fits = false;
        break;
      }
      last = cut;
    }
    if (!fits) continue;
    parts.push(source.slice(start));
    return parts;
  }
  throw new RangeError(`A segment cannot be split into parts of at most ${maxBytes} JSON bytes`);
}

/** Splits off leading and trailing whitespace, which engines do not keep reliably. */
export function trimParts(text: string): { lead: string; core: string; trail: string } {
  const lead = /^\s*/.exec(text)![0];
  const rest = text.slice(lead.length);
  const trail = /\s*$/.exec(rest)![0];
  return { lead, core: rest.slice(0, rest.length - trail.length), trail };
}
