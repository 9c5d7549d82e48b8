/** Progress events and the final report of a translation run. */

/** A segment that could not be translated: kept in the source language and listed here. */
export interface RunFailure {
  readonly locale: string;
  readonly key: string;
  /** The file the segment came from, when known. */
  readonly file?: string;
  readonly position?: { readonly line: number; readonly column: number; readonly offset?: number };
  readonly reason: string;
}

/**
 * A file a run could not read, decode, parse or write: it is left out (its outputs left as they were)
 * and every other file goes on. Reported with a position (`file:line:column`); the run fails at the end.
 */
export interface FileFailure {
  /** Path relative to the project root. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** `read`, `decode` (not UTF-8), `parse` (the adapter rejected it) or `write` (merge or write an output). */
  readonly stage: 'read' | 'decode' | 'parse' | 'write';
  /** Set when one locale's output failed. */
  readonly locale?: string;
  readonly reason: string;
}

/** A finding of the QA gate (see `QaCheck`). */
export interface QaFinding {
  readonly locale: string;
  readonly key: string;
  readonly file?: string;
  readonly severity: 'minor' | 'major' | 'critical';
  readonly message: string;
}

export interface RunReport {
  /** Segment × locale pairs looked at. */
  readonly segments: number;
  /** Pairs whose target was already current (lock), or needed no translation (no words). */
  readonly unchanged: number;
  /** Pairs kept because a person edited (or wrote) the target. */
  readonly humanEdits: number;
  readonly cacheHits: number;
  /** Pairs translated by the service in this run (after verification). */
  readonly translated: number;
  /** Pairs retried with the second code encoding. */
  readonly retried: number;
  readonly requests: number;
  /** Sum of the serialized JSON bodies sent. */
  readonly requestBytes: number;
  readonly billedCharacters: number;
  readonly failures: readonly RunFailure[];
  readonly qa: readonly QaFinding[];
  readonly durationMs: number;
}

export interface RunEstimate {
  readonly segments: number;
  readonly unchanged: number;
  readonly humanEdits: number;
  readonly cacheHits: number;
  readonly requests: number;
  readonly requestBytes: number;
  /** Code points of the unique texts to send, without codes: what the service would bill. */
  readonly billedCharacters: number;
}

export type RunEvent =
  | { readonly type: 'start'; readonly segments: number; readonly locales: readonly string[] }
  | { readonly type: 'cache'; readonly hits: number; readonly misses: number }
  | {
      readonly type: 'request';
      readonly done: number;
      readonly texts: number;
      readonly bytes: number;
      readonly billedCharacters: number;
      readonly error?: Error;
    }
  | { readonly type: 'failure'; readonly failure: RunFailure }
  /** A wave of requests is done and its targets are stored in the cache and the lock. */
  | {
      readonly type: 'wave';
      readonly done: number;
      readonly total: number;
      /** Segment × locale pairs translated (and stored) so far in this run. */
      readonly translated: number;
      /** Pairs sent so far, translated or failed. */
      readonly sent: number;
    }
  | { readonly type: 'done'; readonly report: RunReport };

/**
 * The QA seam: called with every target the run produced (not kept human edits); its findings go into
 * the report. The checks themselves (e.g. `evaluateSegments` of @glossa/quality) are plugged in here.
 */
export type QaCheck = (
  items: readonly {
    readonly locale: string;
    readonly key: string;
    readonly source: string;
    readonly target: string;
  }[],
) => Promise<readonly Omit<QaFinding, 'file'>[]> | readonly Omit<QaFinding, 'file'>[];

/** A report of a run that did nothing: the start of a sum of reports. */
export function emptyRunReport(): RunReport {
  return {
    segments: 0,
    unchanged: 0,
    humanEdits: 0,
    cacheHits: 0,
    translated: 0,
    retried: 0,
    requests: 0,
    requestBytes: 0,
    billedCharacters: 0,
    failures: [],
    qa: [],
    durationMs: 0,
  };
}

/** The report of two runs as one (counts and durations added, failures and findings listed together). */
export function addRunReports(a: RunReport, b: RunReport): RunReport {
  return {
    segments: a.segments + b.segments,
    unchanged: a.unchanged + b.unchanged,
    humanEdits: a.humanEdits + b.humanEdits,
    cacheHits: a.cacheHits + b.cacheHits,
    translated: a.translated + b.translated,
    retried: a.retried + b.retried,
    requests: a.requests + b.requests,
    requestBytes: a.requestBytes + b.requestBytes,
    billedCharacters: a.billedCharacters + b.billedCharacters,
    failures: [...a.failures, ...b.failures],
    qa: [...a.qa, ...b.qa],
    durationMs: a.durationMs + b.durationMs,
  };
}
