/**
 * POST /v2/document: the file is read and its format checked (400/413 before anything is stored), the
 * languages and resources checked like /v2/translate, the characters counted (with the format's billing
 * minimum) and reserved from the quota (456), then the document is queued and its id and key returned.
 */
import { randomBytes } from 'node:crypto';
import {
  baseLanguage,
  canonicalLanguage,
  createRequestValidator,
  DOCUMENT_EXTENSIONS,
  type DocumentExtension,
  decodeForm,
  documentExtension,
  ERROR_CODES,
  isPseudoLocale,
  UploadDocumentFields,
  type UploadDocumentResponse,
  toV2LanguageCode as v2,
} from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import {
  badRequest,
  checkResources,
  currentBillingPeriod,
  engineFormality,
  readUpload,
  ServiceError,
  tooLarge,
  unsupportedLanguage,
  unsupportedMediaType,
} from '@glossa/server/feature';
import type { FastifyRequest } from 'fastify';
import { detectSource } from './detect.js';
import { type DocumentService, UPLOAD_FILE } from './document-job.js';
import { DocumentFormatError, type Extraction } from './formats/format.js';
import { DOCUMENT_FORMATS } from './formats/index.js';
import { type DocumentJobInput, hashDocumentKey } from './records.js';
import { asTranslateRequest, billedOfTexts, type DocumentParameters } from './translate.js';

const validator = createRequestValidator(UploadDocumentFields);
const MAX_UPLOAD_BYTES = Math.max(...Object.values(DOCUMENT_FORMATS).map((format) => format.maxBytes));
/** Estimated translation speed for `seconds_remaining` before a job has started, characters per second. */
const ESTIMATED_CHARACTERS_PER_SECOND = 5000;

/** Output formats a document of each extension can be written as: its own (and its alias). */
const ALIASES: Partial<Record<DocumentExtension, DocumentExtension>> = {
  htm: 'html',
  html: 'htm',
  xlf: 'xliff',
  xliff: 'xlf',
  jpeg: 'jpg',
  jpg: 'jpeg',
};

function language(code: string, parameter: string): string {
  const canonical = canonicalLanguage(code);
  if (!canonical) throw unsupportedLanguage(`Value for '${parameter}' not supported: '${code}'.`);
  return canonical;
}

/** The public service's words for a document whose source language is its target language. */
export const SAME_LANGUAGE_MESSAGE = 'Source and target language are equal.';

/**
 * A document whose source (given or detected) is its target language: accepted, as the public service does,
 * and reported as a failed job (`status: error`, `error_message`: "Source and target language are equal.");
 * nothing is billed.
 */
async function sameLanguageJob(
  service: DocumentService,
  caller: Caller,
  fileName: string,
  extension: DocumentExtension,
  target: string,
  source: string,
): Promise<UploadDocumentResponse> {
  const id = randomBytes(16).toString('hex');
  const key = randomBytes(32).toString('hex');
  await submit(service, caller, id, {
    keyId: caller.key.id,
    keyHash: hashDocumentKey(key),
    extension,
    outputExtension: extension,
    parameters: { file_name: fileName.slice(0, 255), target_lang: target, source_lang: source },
    billed: 0,
    day: currentBillingPeriod().today,
    estimateMs: 0,
    failedWith: SAME_LANGUAGE_MESSAGE,
  });
  return { document_id: id, document_key: key };
}

/**
 * Submits the document's job (with its upload as a job file: both are stored, or neither). Past a limit the
 * runner's `JobLimitExceeded` is the spine's 429 "Too many jobs: …".
 */
async function submit(
  service: DocumentService,
  caller: Caller,
  id: string,
  input: DocumentJobInput,
  upload?: Uint8Array,
): Promise<void> {
  await service.jobs.submit(caller.account.id, input, {
    id,
    ...(upload ? { files: { [UPLOAD_FILE]: upload } } : {}),
  });
}

export async function uploadDocument(
  request: FastifyRequest,
  caller: Caller,
  context: ServiceContext,
  service: DocumentService,
): Promise<UploadDocumentResponse> {
  if (
    !String(request.headers['content-type'] ?? '')
      .toLowerCase()
      .startsWith('multipart/form-data')
  )
    throw unsupportedMediaType(request);
  const upload = await readUpload(request, MAX_UPLOAD_BYTES);
  if (!upload.file) throw badRequest("Parameter 'file' is required: send the document as the 'file' part.");
  const checked = validator.validate(decodeForm(upload.fields, UploadDocumentFields));
  if (!checked.ok) throw badRequest(checked.message);
  const fields = checked.value;

  // The `filename` parameter names the file when given (the public description's alternative to the part's
  // name: a part without one is called "blob" by FormData, or has none), else the file part's name.
  const fileName = fields.filename || upload.file.name || '';
  const extension = documentExtension(fileName);
  if (!extension) {
    const given = /\.([^./\\]{1,20})$/.exec(fileName)?.[1];
    throw badRequest(
      `Invalid file data: unsupported file extension${given ? ` '.${given}'` : ' (the file name has no extension)'}; send one of ${DOCUMENT_EXTENSIONS.join(', ')}.`,
    );
  }
  const format = service.formats[extension];
  if (!format)
    throw badRequest(
      `Document format '${extension}' is not supported by this server (yet); no document was created.`,
    );
  if (
    fields.output_format !== undefined &&
    fields.output_format !== extension &&
    fields.output_format !== ALIASES[extension] &&
    !(extension === 'pdf' && fields.output_format === 'docx')
  )
    throw badRequest(
      `Parameter 'output_format' '${fields.output_format}' is not supported for '${extension}' documents.`,
    );
  if (upload.file.bytes.length > format.maxBytes)
    throw tooLarge(`Document too large: ${format.name} documents may be at most ${format.maxBytes} bytes.`);
  if (upload.file.bytes.length === 0) throw badRequest('The document is empty.');

  const target = language(fields.target_lang, 'target_lang');
  const given = fields.source_lang === undefined ? undefined : canonicalLanguage(fields.source_lang);
  let extraction: Extraction | undefined;
  let estimateMs: number | undefined;
  try {
    if (format.readInJob) ({ estimateMs } = await format.readInJob.check(upload.file.bytes));
    else
      extraction = await format.extract(upload.file.bytes, {
        targetLang: target,
        ...(given !== undefined ? { sourceLang: given } : {}),
      });
  } catch (error) {
    if (error instanceof DocumentFormatError)
      throw new ServiceError(
        error.status,
        error.message,
        error.status === 413 ? ERROR_CODES.requestTooLarge : ERROR_CODES.invalidRequest,
      );
    throw error;
  }
  // A format read by the job (OCR) has its source detected there, from the text it reads.
  const source =
    fields.source_lang !== undefined
      ? (canonicalLanguage(baseLanguage(language(fields.source_lang, 'source_lang'))) ??
        baseLanguage(fields.source_lang))
      : extraction
        ? await detectSource(extraction, target, context)
        : undefined;
  if (source !== undefined && !isPseudoLocale(target) && baseLanguage(source) === baseLanguage(target))
    return sameLanguageJob(service, caller, fileName, extension, target, source);
  const choice = source === undefined ? undefined : context.engines.select(source, target);
  if (source === undefined ? context.engines.sourcesFor(target).size === 0 : !choice)
    throw unsupportedLanguage(
      source === undefined
        ? `Target language ${v2(target)} is not supported by this server's engines.`
        : `Language pair ${v2(source)} → ${v2(target)} is not supported by this server's engines.`,
    );
  const glossaryIds =
    fields.glossary_ids ?? (fields.glossary_id !== undefined ? [fields.glossary_id] : undefined);
  const parameters: DocumentParameters = {
    file_name: fileName.slice(0, 255),
    target_lang: target,
    ...(source !== undefined ? { source_lang: source } : {}),
    ...(fields.formality !== undefined ? { formality: fields.formality } : {}),
    ...(glossaryIds !== undefined ? { glossary_ids: glossaryIds } : {}),
    ...(fields.style_id !== undefined ? { style_id: fields.style_id } : {}),
    ...(fields.translation_memory_id !== undefined
      ? { translation_memory_id: fields.translation_memory_id }
      : {}),
    ...(fields.translation_memory_threshold !== undefined
      ? { translation_memory_threshold: fields.translation_memory_threshold }
      : {}),
  };
  const asRequest = asTranslateRequest(parameters);
  await checkResources(asRequest, source, target, caller, context);
  if (choice) engineFormality(asRequest, choice, target);

  // A format read by the job reserves its characters there (nothing yet: the quota is only checked). Counted
  // one text at a time: a large HTML page's parts prepared at once held about 5 bytes a character.
  const counted = extraction ? billedOfTexts(extraction.texts) : 0;
  const billed = Math.max(counted, format.minimumBilled);
  const period = currentBillingPeriod();
  const usage = {
    accountId: caller.account.id,
    keyId: caller.key.id,
    product: 'translate',
    customTag: '',
    units: billed,
    day: period.today,
  } as const;
  const reserved = await context.storage.reserveCharacters({
    ...usage,
    periodFrom: period.fromDay,
    periodTo: period.toDay,
    limit: caller.account.characterLimit,
  });
  if (!reserved)
    throw new ServiceError(
      456,
      'Quota exceeded: the character limit of this billing period has been reached.',
      ERROR_CODES.quotaExceeded,
    );

  const id = randomBytes(16).toString('hex');
  const key = randomBytes(32).toString('hex');
  try {
    await submit(
      service,
      caller,
      id,
      {
        keyId: caller.key.id,
        keyHash: hashDocumentKey(key),
        extension,
        outputExtension: fields.output_format ?? extension,
        parameters,
        billed,
        day: period.today,
        // The time estimate follows the text there is, not the billing minimum.
        estimateMs: estimateMs ?? Math.ceil((counted / ESTIMATED_CHARACTERS_PER_SECOND) * 1000),
      },
      upload.file.bytes,
    );
  } catch (error) {
    // Not stored (nor its job): the characters go back.
    await context.storage.recordUsage({ ...usage, units: -billed });
    throw error;
  }
  // Stored, with its job: the reservation is committed before the answer (SQLite writes usage behind, and a
  // kill before that write would leave a document that runs unbilled).
  await context.storage.commitUsage();
  return { document_id: id, document_key: key };
}
