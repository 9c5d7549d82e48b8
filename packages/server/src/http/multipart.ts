/**
 * Reading the multipart body of POST /v2/document: text fields and exactly one `file` part, streamed
 * through busboy with limits (the file's bytes are counted as they arrive and refused past `maxFileBytes`).
 */
import { Busboy } from '@fastify/busboy';
import { DOCUMENT_FILE_FIELD, ERROR_CODES } from '@glossa/protocol';
import type { FastifyRequest } from 'fastify';
import { badRequest, ServiceError } from '../errors.js';

export interface Upload {
  readonly fields: URLSearchParams;
  readonly file: { readonly name: string; readonly bytes: Buffer } | undefined;
}

const MAX_FIELDS = 50;
const MAX_FIELD_BYTES = 64 * 1024;

export const tooLarge = (message: string) => new ServiceError(413, message, ERROR_CODES.requestTooLarge);

export function readUpload(request: FastifyRequest, maxFileBytes: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: ServiceError) => {
      if (failed) return;
      failed = true;
      request.raw.unpipe();
      request.raw.resume();
      reject(error);
    };
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: request.headers as { 'content-type': string },
        // The `file` part is the file even when its Content-Disposition names no filename.
        isPartAFile: (name, type, fileName) =>
          name === DOCUMENT_FILE_FIELD || type === 'application/octet-stream' || fileName !== undefined,
        limits: {
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          files: 1,
          fileSize: maxFileBytes,
          parts: MAX_FIELDS + 1,
        },
      });
    } catch (error) {
      reject(badRequest(`Multipart body is not valid: ${(error as Error).message}`));
      return;
    }
    const fields = new URLSearchParams();
    let file: Upload['file'];
    let fileDone: Promise<void> = Promise.resolve();
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated)
        fail(badRequest(`Field '${name.slice(0, 50)}' is longer than ${MAX_FIELD_BYTES} bytes.`));
      else fields.append(name, value);
    });
    parser.on('file', (name, stream, fileName) => {
      if (name !== DOCUMENT_FILE_FIELD) {
        stream.resume();
        fail(
          badRequest(`Unexpected file part '${name.slice(0, 50)}': send the document as the 'file' part.`),
        );
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(tooLarge(`Document too large: the limit for this server is ${maxFileBytes} bytes.`)),
      );
      fileDone = new Promise((done) =>
        stream.on('end', () => {
          file = { name: fileName ?? '', bytes: Buffer.concat(chunks) };
          done();
        }),
      );
    });
    parser.on('filesLimit', () => fail(badRequest('Send exactly one file part.')));
    parser.on('fieldsLimit', () => fail(badRequest(`At most ${MAX_FIELDS} fields are accepted.`)));
    parser.on('partsLimit', () => fail(badRequest(`At most ${MAX_FIELDS + 1} parts are accepted.`)));
    parser.on('error', (error) =>
      fail(
        badRequest(`Multipart body is not valid: ${error instanceof Error ? error.message : String(error)}`),
      ),
    );
    parser.on('finish', () => {
      void fileDone.then(() => {
        if (!failed) resolve({ fields, file });
      });
    });
    request.raw.on('error', () => fail(badRequest('The upload was interrupted.')));
    request.raw.pipe(parser);
  });
}
