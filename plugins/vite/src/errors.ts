import type { RunFailure } from '@glossa/core';

/** `cacheOnly` build: these translations are not in the cache. `missing` lists locale, key and file. */
export class MissingTranslationsError extends Error {
  override name = 'MissingTranslationsError';
  readonly code = 'missing_translations';
  readonly missing: readonly RunFailure[];
  constructor(missing: readonly RunFailure[], message?: string) {
    super(message ?? describeMissing(missing));
    this.missing = missing;
  }
}

function describeMissing(missing: readonly RunFailure[]): string {
  const lines = missing
    .slice(0, 50)
    .map((m) => `  ${m.locale}  ${m.key}${m.position ? ` (line ${m.position.line})` : ''}`);
  const more = missing.length > 50 ? [`  … and ${missing.length - 50} more`] : [];
  return [
    `${missing.length} translation(s) missing from the cache (cacheOnly mode makes no service calls);`,
    'run the build once without cacheOnly (or `glossa translate`) to fill it:',
    ...lines,
    ...more,
  ].join('\n');
}
