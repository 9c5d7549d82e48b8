import { sharedHelperLifetime } from '@glossa/server/feature';
import { closeLanguageDetector } from '../detect/shared.js';
import { closeGrammalecte } from './grammalecte.js';
import { closeEnglish } from './harper.js';
import { closeHunspell } from './hunspell.js';

/**
 * Retains the Hunspell and Grammalecte helper processes and the Harper and detection threads for one server;
 * the returned function releases them (the last server's release stops them).
 */
export const retainWriteHelpers = sharedHelperLifetime(() => {
  closeHunspell();
  closeGrammalecte();
  void closeEnglish();
  void closeLanguageDetector();
});
