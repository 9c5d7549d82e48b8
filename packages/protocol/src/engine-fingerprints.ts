/**
 * Glossa's own response header on `GET /v2/languages?type=target` and `GET /v3/languages`: per target
 * language, a short hash of the engines (provider, host, model, prompt version, order) that translate into
 * it. A client keys its persistent cache with it, so a model change on the server re-translates. Other
 * clients of the protocol ignore the header (an extra response header changes no documented shape).
 * Value: `de=0123456789abcdef,pt-BR=…` (targets in the v3 canonical form, comma-separated).
 */
export const ENGINE_FINGERPRINTS_HEADER = 'x-glossa-engine-fingerprints';

export function formatEngineFingerprints(byTarget: ReadonlyMap<string, string>): string {
  return [...byTarget].map(([target, hash]) => `${target}=${hash}`).join(',');
}

/** Targets lower-cased; malformed entries are skipped. */
export function parseEngineFingerprints(value: string | null | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of (value ?? '').split(',')) {
    const at = entry.indexOf('=');
    const target = entry.slice(0, at).trim().toLowerCase();
    const hash = entry.slice(at + 1).trim();
    if (at > 0 && target && /^[0-9a-f]{8,64}$/.test(hash)) map.set(target, hash);
  }
  return map;
}

/** The fingerprint for `target` (`pt-BR`), else its base language's (`pt`); `undefined` when not listed. */
export function engineFingerprintOf(map: ReadonlyMap<string, string>, target: string): string | undefined {
  const lower = target.toLowerCase();
  return map.get(lower) ?? map.get(lower.split('-')[0]!);
}

/**
 * Glossa's own response header on `POST /v2/translate`: the indexes (0-based, comma-separated, ascending)
 * of the request's texts that hold a segment every engine failed, answered in the source language
 * ("never worse"). Absent when there is none. Other clients ignore it.
 */
export const KEPT_SOURCE_HEADER = 'x-glossa-kept-source';

export function parseKeptSource(value: string | null | undefined): number[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
}

/**
 * Glossa's own response header on `POST /v2/translate` (docs/engines.md): `index:word,word;index:word`, the
 * request's texts (0-based, ascending) translated with those words left in the source language, each word
 * percent-encoded; a last `;+N` counts texts not listed (the value is bounded).
 */
export const LEFT_WORDS_HEADER = 'x-glossa-left-words';

/** The texts and words of an `X-Glossa-Left-Words` value; malformed entries and the `+N` count are skipped. */
export function parseLeftWords(value: string | null | undefined): Map<number, string[]> {
  const left = new Map<number, string[]>();
  for (const entry of (value ?? '').split(';')) {
    const match = /^\s*(\d+):(.+)$/.exec(entry);
    if (!match) continue;
    const words = match[2]!.split(',').flatMap((word) => {
      try {
        const decoded = decodeURIComponent(word.trim());
        return decoded === '' ? [] : [decoded];
      } catch {
        return [];
      }
    });
    if (words.length > 0) left.set(Number(match[1]), words);
  }
  return left;
}

/** The longest `X-Glossa-Left-Words` value: texts past it are counted (`;+N`), not listed. */
export const MAX_LEFT_WORDS_HEADER = 4_096;

/**
 * The `X-Glossa-Left-Words` value: `index:word,word;index:word` (texts ascending, 0-based; each word
 * percent-encoded as `encodeURIComponent` does, so the value is ASCII), at most `MAX_LEFT_WORDS_HEADER`
 * characters; when texts do not fit, it ends with `;+N`, the number of texts with words left that are not
 * listed. `undefined` when no text has any.
 */
export function formatLeftWords(left: ReadonlyMap<number, readonly string[]>): string | undefined {
  if (left.size === 0) return undefined;
  const entries = [...left]
    .sort(([a], [b]) => a - b)
    .map(([index, found]) => `${index}:${found.map(encodeURIComponent).join(',')}`);
  let value = '';
  for (const [position, entry] of entries.entries()) {
    const rest = entries.length - position - 1;
    const next = value === '' ? entry : `${value};${entry}`;
    // Room for the count of what would follow.
    if (next.length + (rest > 0 ? `;+${rest}`.length : 0) > MAX_LEFT_WORDS_HEADER) {
      const more = `+${entries.length - position}`;
      return value === '' ? more : `${value};${more}`;
    }
    value = next;
  }
  return value;
}
