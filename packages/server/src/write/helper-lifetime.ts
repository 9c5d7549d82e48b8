/**
 * The Hunspell and Grammalecte helper processes (one per dictionary, one for French) and the `lt-proc`
 * processes of glossary term agreement are shared by every server in the process, started on first use. They live as long as some server uses them: each
 * server retains them when it is created and releases them when it closes; the last release stops them.
 */
import { closeAgreementTools } from '../glossaries/agreement.js';
import { closeGrammalecte } from './grammalecte.js';
import { closeHunspell } from './hunspell.js';

let servers = 0;

/** Marks one more server as using the helpers; the returned function (idempotent) releases it. */
export function retainHelperProcesses(): () => void {
  servers++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    servers--;
    if (servers === 0) {
      closeHunspell();
      closeGrammalecte();
      closeAgreementTools();
    }
  };
}
