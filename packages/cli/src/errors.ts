/** Errors of the `glossa` command and the exit code each maps to. */

/** Bad usage: an unknown command or option, a missing argument, a wrong value. Exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The work ran but its gate failed (`check`, `translate --frozen`): the report says why. Exit code 1. */
export class GateFailure extends Error {
  override name = 'GateFailure';
}
