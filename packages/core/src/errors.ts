/**
 * Typed errors of @glossa/core. Misuse (a wrong option) throws `TypeError`/`RangeError` instead;
 * bad content inside a file is reported with its position and the rest of the work goes on.
 */

/** Base class of every error @glossa/core throws on purpose. */
export class GlossaCoreError extends Error {
  override name = 'GlossaCoreError';
  /** A stable machine-readable code, e.g. `inline_syntax`. */
  readonly code: string;
  constructor(message: string, code: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** A segment source or a returned target is not valid inline XML (`<g id>`, `<x id/>`, escaped text). */
export class InlineSyntaxError extends GlossaCoreError {
  override name = 'InlineSyntaxError';
  /** Offset (UTF-16 code units) into the text where the problem starts. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`, 'inline_syntax');
    this.offset = offset;
  }
}

/** An ICU MessageFormat string could not be parsed. */
export class MessageFormatError extends GlossaCoreError {
  override name = 'MessageFormatError';
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`, 'message_format');
    this.offset = offset;
  }
}

/**
 * An optional package a feature needs is not installed (the embedded `@glossa/server`, `redis` for the Redis
 * cache store). The message says what to install or set instead.
 */
export class MissingPackageError extends GlossaCoreError {
  override name = 'MissingPackageError';
  /** The npm package to install. */
  readonly packageName: string;
  constructor(message: string, packageName: string, options?: { cause?: unknown }) {
    super(message, 'missing_package', options);
    this.packageName = packageName;
  }
}

/** A cache store could not be read or written. */
export class CacheStoreError extends GlossaCoreError {
  override name = 'CacheStoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'cache_store', options);
  }
}

/** `glossa.lock` could not be read (not JSON, wrong version) or written. */
export class LockFileError extends GlossaCoreError {
  override name = 'LockFileError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'lock_file', options);
  }
}

/** A local resource (glossary TSV/CSV, TMX, style list) could not be synced to the service. */
export class ResourceSyncError extends GlossaCoreError {
  override name = 'ResourceSyncError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, 'resource_sync', options);
  }
}
