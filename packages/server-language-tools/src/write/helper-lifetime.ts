import { sharedHelperLifetime } from '@glossa/server/feature';
import { closeGrammalecte } from './grammalecte.js';
import { closeHunspell } from './hunspell.js';

/** Retains the Hunspell and Grammalecte helper processes for one server; the returned function releases them. */
export const retainWriteHelpers = sharedHelperLifetime(() => {
  closeHunspell();
  closeGrammalecte();
});
