/** The server options of document translation (`ServerOptions.documents`), checked and completed once. */

export interface DocumentOptions {
  /**
   * Documents one instance translates at a time (each runs at most one OCR process), within the server's
   * job runner (`jobs.concurrency` of createServer, default 4). Default 2.
   */
  concurrency?: number;
  /** Seconds a document and its result are kept after the upload, downloaded or not. Default 86,400 (24 h). */
  expirySeconds?: number;
  /** Attributes whose values are translated in `xml` documents. Default `['alt', 'title']`. */
  xmlAttributes?: readonly string[];
  /** Attributes whose values are translated in `dita` documents. Default `['alt', 'navtitle']`. */
  ditaAttributes?: readonly string[];
  /**
   * No longer used (checked only, for configurations that set it): documents run on the server's job
   * runner, whose takeover of a dead instance's jobs is `jobs.sweepMs` of createServer.
   */
  jobTimeoutSeconds?: number;
  /** No longer used (checked only): see `jobTimeoutSeconds`. */
  leaseCheckSeconds?: number;
}

export interface ResolvedDocumentOptions {
  readonly concurrency: number;
  readonly expirySeconds: number;
  readonly xmlAttributes: readonly string[];
  readonly ditaAttributes: readonly string[];
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;

function attributes(name: string, value: unknown, fallback: readonly string[]): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && NAME.test(item)))
    throw new TypeError(
      `documents.${name}: expected an array of XML attribute names, got ${JSON.stringify(value)}`,
    );
  return Object.freeze([...value]);
}

export function resolveDocumentOptions(options: DocumentOptions = {}): ResolvedDocumentOptions {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`documents: expected an options object, got ${String(options)}`);
  const concurrency = options.concurrency ?? 2;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new RangeError(`documents.concurrency: expected an integer from 1 to 64, got ${concurrency}`);
  const expirySeconds = options.expirySeconds ?? 86_400;
  if (!Number.isSafeInteger(expirySeconds) || expirySeconds < 1)
    throw new RangeError(`documents.expirySeconds: expected a positive integer, got ${expirySeconds}`);
  const jobTimeoutSeconds = options.jobTimeoutSeconds ?? 3600;
  if (!Number.isSafeInteger(jobTimeoutSeconds) || jobTimeoutSeconds < 1 || jobTimeoutSeconds >= 86_400)
    throw new RangeError(
      `documents.jobTimeoutSeconds: expected an integer from 1 to 86399, got ${jobTimeoutSeconds}`,
    );
  const leaseCheckSeconds = options.leaseCheckSeconds ?? 5;
  if (typeof leaseCheckSeconds !== 'number' || !(leaseCheckSeconds >= 0.1 && leaseCheckSeconds <= 3600))
    throw new RangeError(
      `documents.leaseCheckSeconds: expected a number from 0.1 to 3600, got ${leaseCheckSeconds}`,
    );
  return {
    concurrency,
    expirySeconds,
    xmlAttributes: attributes('xmlAttributes', options.xmlAttributes, ['alt', 'title']),
    ditaAttributes: attributes('ditaAttributes', options.ditaAttributes, ['alt', 'navtitle']),
  };
}
