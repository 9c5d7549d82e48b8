import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@glossa/protocol';

/**
 * An error the service answers with: an HTTP status and the interface's body `{message, code?, detail?}`.
 * Everything a route throws that is not a `ServiceError` becomes a 500 with a generic message.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly headers: Readonly<Record<string, string>>;
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly detail?: string,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { message: this.message };
    if (this.code !== undefined) body.code = this.code;
    if (this.detail !== undefined) body.detail = this.detail;
    return body;
  }
}

export const badRequest = (message: string, detail?: string) =>
  new ServiceError(400, message, ERROR_CODES.invalidRequest, detail);

export const forbidden = (message: string, code: ErrorCode = ERROR_CODES.authorizationFailed) =>
  new ServiceError(403, message, code);

export const notFound = (message: string) => new ServiceError(404, message, ERROR_CODES.notFound);

export const unsupportedLanguage = (message: string) =>
  new ServiceError(400, message, ERROR_CODES.unsupportedLanguage);
