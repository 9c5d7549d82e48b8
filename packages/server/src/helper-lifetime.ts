/**
 * Helper processes shared by every server in the Node process (the `lt-proc` processes of glossary term
 * agreement, the Hunspell and Grammalecte processes of the language tools) are started on first use and
 * live as long as some server uses them: each server retains them when it is created and releases them
 * when it closes; the last release stops them.
 */

/** A retain function for helpers that `stop` ends; each call returns an idempotent release. */
export function sharedHelperLifetime(stop: () => void): () => () => void {
  let users = 0;
  return () => {
    users++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      users--;
      if (users === 0) stop();
    };
  };
}
