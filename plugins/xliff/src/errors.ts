/** Bad XLIFF content: not well-formed XML, a refused DOCTYPE, or a structure this adapter cannot read. */
export class XliffError extends Error {
  override readonly name = 'XliffError';
  constructor(
    message: string,
    readonly code: 'malformed_xml' | 'doctype_refused' | 'invalid_xliff' | 'invalid_translation',
    readonly line?: number,
    readonly column?: number,
    options?: { cause?: unknown },
  ) {
    super(line === undefined ? message : `${line}:${column}: ${message}`, options);
  }
}
