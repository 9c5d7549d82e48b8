/** Generated English prose for the abuse test and the growth bench: the same text for the same length and seed. */
const WORDS =
  'the house files review open green tables paper river system window letter garden market travel evening'.split(
    ' ',
  );

/** English prose of exactly `length` characters (numbered sentences of 12 words, like a real page). */
export function prose(length: number, seed = 0): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = seed; size < length; i++) {
    const sentence = `${Array.from({ length: 12 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ')} ${i}. `;
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('').slice(0, length);
}
