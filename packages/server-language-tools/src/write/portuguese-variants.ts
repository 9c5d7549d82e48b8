import { startsSentence, withoutAccents } from './edits.js';
import { checkWords } from './hunspell.js';

export type PortugueseVariant = 'pt-BR' | 'pt-PT';

/**
 * Brazilian ↔ European Portuguese, as far as it can be done honestly without a translation engine:
 * spelling decided by the two Hunspell dictionaries (hunspell-pt-br, hunspell-pt-pt): a word the target
 * variant's dictionary rejects but the other accepts becomes the target's suggestion that differs from it
 * only in accents (`econômico` ↔ `económico`, `gênero` ↔ `género`) or by one c/p (`recepção` ↔ `receção`);
 * plus a short list of unambiguous everyday words. Grammar (`estou fazendo` / `estou a fazer`) and
 * pronoun placement are not converted.
 */
const BRAZILIAN_TO_EUROPEAN: Readonly<Record<string, string>> = {
  ônibus: 'autocarro',
  geladeira: 'frigorífico',
  'café da manhã': 'pequeno-almoço',
  banheiro: 'casa de banho',
  xícara: 'chávena',
  equipe: 'equipa',
  registro: 'registo',
  usuário: 'utilizador',
  usuários: 'utilizadores',
};
const EUROPEAN_TO_BRAZILIAN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(BRAZILIAN_TO_EUROPEAN).map(([brazilian, european]) => [european, brazilian]),
);

export async function convertPortuguese(text: string, target: PortugueseVariant): Promise<string> {
  const other: PortugueseVariant = target === 'pt-PT' ? 'pt-BR' : 'pt-PT';
  let current = text;
  const vocabulary = target === 'pt-PT' ? BRAZILIAN_TO_EUROPEAN : EUROPEAN_TO_BRAZILIAN;
  for (const [from, to] of Object.entries(vocabulary)) {
    current = current.replace(new RegExp(`(?<![\\p{L}])${from}(?![\\p{L}])`, 'giu'), (found) =>
      found[0] === found[0]?.toUpperCase() ? to[0]!.toUpperCase() + to.slice(1) : to,
    );
  }
  const tokens = [...new Set(current.match(/[\p{L}\p{M}]+/gu) ?? [])];
  const [inTarget, inOther] = await Promise.all([checkWords(target, tokens), checkWords(other, tokens)]);
  const replacements = new Map<string, string>();
  tokens.forEach((word, index) => {
    if (inTarget[index]!.correct || !inOther[index]!.correct) return;
    const variant = inTarget[index]!.suggestions.find((suggestion) => isVariantOf(word, suggestion));
    if (variant) replacements.set(word, variant);
  });
  if (replacements.size === 0) return current;
  // A capital inside a sentence makes a name, not a spelling of the other variant ("Palo Santo").
  return current.replace(/[\p{L}\p{M}]+/gu, (word, offset: number) => {
    const replacement = replacements.get(word);
    if (replacement === undefined) return word;
    const name =
      word[0] !== word[0]?.toLowerCase() &&
      !startsSentence(current, Array.from(current.slice(0, offset)).length);
    return name ? word : replacement;
  });
}

function isVariantOf(word: string, suggestion: string): boolean {
  const a = withoutAccents(word);
  const b = withoutAccents(suggestion);
  if (a === b) return true;
  // One c or p more or less: recepção / receção, contacto / contato.
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  if (longer.length !== shorter.length + 1) return false;
  for (let index = 0; index < longer.length; index++) {
    if (longer.slice(0, index) + longer.slice(index + 1) === shorter) return 'cp'.includes(longer[index]!);
  }
  return false;
}
