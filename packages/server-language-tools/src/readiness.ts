/**
 * A feature's readiness while its warm-up runs, for `RunningFeature.ready`: it rejects at once while the
 * warm-up runs (so `/ready` answers 503 at once, never waits), rejects with the warm-up's error if it failed,
 * and resolves once it succeeded.
 */
export interface Readiness {
  ready(): Promise<void>;
  /** The warm-up's failure is not logged after this (the server closing stops what was loading). */
  closing(): void;
}

export function trackReadiness(
  warmUp: Promise<void> | undefined,
  log: {
    info(detail: Record<string, unknown>, message: string): void;
    error(detail: Record<string, unknown>, message: string): void;
  },
  what: string,
): Readiness {
  let state: 'loading' | 'loaded' | Error = warmUp ? 'loading' : 'loaded';
  let closing = false;
  const started = performance.now();
  warmUp?.then(
    () => {
      state = 'loaded';
      log.info({ ms: Math.round(performance.now() - started) }, `${what} loaded`);
    },
    (error: unknown) => {
      state = error instanceof Error ? error : new Error(String(error));
      if (!closing) log.error({ err: error }, `${what} failed to load`);
    },
  );
  return {
    async ready() {
      if (state === 'loading') throw new Error(`${what} are loading`);
      if (state instanceof Error) throw state;
    },
    closing() {
      closing = true;
    },
  };
}
