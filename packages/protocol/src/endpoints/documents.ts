import {
  DocumentIdParams,
  DocumentKeyRequest,
  DocumentStatusResponse,
  UploadDocumentFields,
  UploadDocumentResponse,
} from '../documents.js';
import type { EndpointDefinition } from '../endpoint.js';

const common = { group: 'documents', access: 'any' } as const;

/** Document translation: upload, poll the status, download the result once. */
export const DOCUMENT_ENDPOINTS = {
  uploadDocument: {
    ...common,
    method: 'POST',
    path: '/v2/document',
    operationId: 'uploadDocument',
    billed: true,
    summary: 'Upload a document for translation (multipart: file plus fields)',
    body: UploadDocumentFields,
    encodings: ['multipart'],
    status: 200,
    response: UploadDocumentResponse,
    notes: 'The file part is required; its extension must be one of DOCUMENT_EXTENSIONS (else 400).',
  },
  getDocumentStatus: {
    ...common,
    method: 'POST',
    path: '/v2/document/:document_id',
    operationId: 'getDocumentStatus',
    summary: 'Get the status of a document translation',
    params: DocumentIdParams,
    body: DocumentKeyRequest,
    encodings: ['json', 'form'],
    status: 200,
    response: DocumentStatusResponse,
    notes: 'A wrong id or key: 404.',
  },
  downloadDocument: {
    ...common,
    method: 'POST',
    path: '/v2/document/:document_id/result',
    operationId: 'downloadDocument',
    summary: 'Download the translated document (once; then it is deleted)',
    params: DocumentIdParams,
    body: DocumentKeyRequest,
    encodings: ['json', 'form'],
    status: 200,
    responseContentType: 'application/octet-stream',
    notes: 'Not ready: 503. Wrong id or key, or already downloaded: 404.',
  },
} as const satisfies Record<string, EndpointDefinition>;
