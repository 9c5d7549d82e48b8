/** Spoken terms kept as written: a term recognized in any letter case is rewritten as its collection spells it. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function applySpokenTerms(text: string, terms: readonly string[]): string {
  let result = text;
  // Longest first, so "New York City" wins over "New York".
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const words = term.trim().split(/\s+/).map(escapeRegExp);
    if (words.length === 0 || words[0] === '') continue;
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}'])${words.join('\\s+')}(?![\\p{L}\\p{N}'])`, 'giu');
    result = result.replace(pattern, term.trim());
  }
  return result;
}
