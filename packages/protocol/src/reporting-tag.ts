import { MAX_REPORTING_TAG_LENGTH } from './limits.js';

export type ReportingTagResult =
  | { readonly ok: true; readonly tag: string }
  | { readonly ok: false; readonly message: string };

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The wire decision for `X-Service-Reporting-Tag`: the value is trimmed and lower-cased, and must then be
 * 1 to 100 printable ASCII characters without whitespace. A repeated header (an array) is refused.
 * Returns the normalized tag, or the message for a 400.
 */
export function normalizeReportingTag(header: string | readonly string[]): ReportingTagResult {
  if (typeof header !== 'string') {
    return header.length === 1
      ? normalizeReportingTag(header[0]!)
      : { ok: false, message: "Header 'X-Service-Reporting-Tag' must be sent once." };
  }
  const tag = header.trim().toLowerCase();
  if (tag.length === 0) return { ok: false, message: "Header 'X-Service-Reporting-Tag' must not be empty." };
  if (tag.length > MAX_REPORTING_TAG_LENGTH) {
    return {
      ok: false,
      message: `Header 'X-Service-Reporting-Tag' is too long (at most ${MAX_REPORTING_TAG_LENGTH} characters).`,
    };
  }
  if (!PRINTABLE_ASCII.test(tag)) {
    return {
      ok: false,
      message: "Header 'X-Service-Reporting-Tag' must be printable ASCII characters without whitespace.",
    };
  }
  return { ok: true, tag };
}
