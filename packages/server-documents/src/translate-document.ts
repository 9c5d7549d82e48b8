/**
 * What one document job does, whichever instance runs it (document-job.ts registers it on the server's job
 * runner): read the upload, detect its source when the job reads the text (OCR), reserve the characters such
 * a format reads (`hooks.reserve`: document-job.ts), translate in chunks, rebuild; and the message a failure
 * reports.
 */
import type { DocumentKeptSource } from '@glossa/protocol';
import type { Caller, ServiceContext } from '@glossa/server/feature';
import { checkResources, EngineError, ServiceError } from '@glossa/server/feature';
import { detectSource } from './detect.js';
import { DocumentFormatError } from './formats/format.js';
import type { DocumentFormats } from './formats/index.js';
import { billedOf, type DocumentJobInfo } from './records.js';
import {
  asTranslateRequest,
  billedOfTexts,
  type ChunkCheckpoints,
  type SourcedParameters,
  translateTexts,
} from './translate.js';

export interface JobHooks {
  /** The share of the text translated so far (0..1), after each chunk (awaited: a checkpoint is saved). */
  onProgress(done: number): void | Promise<void>;
  /** Throws to stop between two steps (the instance closing, the job taken over). */
  checkpoint(): void;
  /**
   * Reserves the characters a format read by the job counted, and records them on the document so that
   * neither a retry reserves them again nor a failure forgets to refund them; false when the quota is full.
   */
  reserve(units: number, caller: Caller): Promise<boolean>;
  /** Chunks translated by an earlier attempt of this document, and where to keep this one's (a fleet). */
  readonly chunks?: ChunkCheckpoints;
}

/** A document as its job is given to an attempt. */
type Document = Pick<DocumentJobInfo, 'accountId' | 'input' | 'checkpoint'>;

async function callerOf(context: ServiceContext, document: Document): Promise<Caller | undefined> {
  const account = await context.storage.getAccount(document.accountId);
  return account && { account, key: { id: document.input.keyId, accountId: document.accountId } };
}

/**
 * Translates one document; its result's bytes, and the segments every engine failed (kept in the source
 * language). Throws what the job failed with.
 */
export async function translateDocument(
  document: Document,
  bytes: Uint8Array,
  context: ServiceContext,
  formats: DocumentFormats,
  hooks: JobHooks,
): Promise<{ result: Uint8Array; kept: DocumentKeptSource }> {
  const { input } = document;
  const format = formats[input.extension];
  const caller = await callerOf(context, document);
  if (!format || !caller) throw new DocumentFormatError('This document can no longer be translated.');
  const target = input.parameters.target_lang;
  const extract = (sourceLang: string | undefined) =>
    format.extract(bytes, {
      targetLang: target,
      ...(sourceLang !== undefined ? { sourceLang } : {}),
      outputFormat: input.outputExtension,
    });
  let extraction = await extract(input.parameters.source_lang);
  let parameters: SourcedParameters;
  if (input.parameters.source_lang === undefined) {
    // Read by the job (OCR): the source is detected from what was read, which is read again in it.
    const source = await detectSource(extraction, target, context);
    parameters = { ...input.parameters, source_lang: source };
    await checkResources(asTranslateRequest(parameters), source, target, caller, context);
    extraction = await extract(source);
  } else parameters = { ...input.parameters, source_lang: input.parameters.source_lang };
  const choice = context.engines.select(parameters.source_lang, target);
  if (!choice) throw new DocumentFormatError('This document can no longer be translated.');
  // A retried job finds the characters it reserved on the document (billed once).
  if (format.readInJob && billedOf(document) === 0) {
    const units = billedOfTexts(extraction.texts);
    if (units > 0 && !(await hooks.reserve(units, caller)))
      throw new DocumentFormatError(
        'Quota exceeded: the character limit of this billing period has been reached.',
      );
  }
  hooks.checkpoint();
  const { outputs, kept } = await translateTexts({
    texts: extraction.texts,
    parameters,
    caller,
    choice,
    context,
    onProgress: hooks.onProgress,
    checkpoint: hooks.checkpoint,
    ...(hooks.chunks ? { chunks: hooks.chunks } : {}),
  });
  const result = await extraction.rebuild(outputs);
  hooks.checkpoint();
  return { result, kept };
}

/** The `error_message` a failed job reports; whether the failure is unexpected (to be logged). */
export function failureOf(error: unknown): { message: string; unexpected: boolean } {
  if (error instanceof EngineError)
    return { message: `Translation engine '${error.engine}' failed: ${error.message}`, unexpected: false };
  if (error instanceof DocumentFormatError || error instanceof ServiceError)
    return { message: error.message, unexpected: false };
  return { message: 'The document could not be translated (internal error).', unexpected: true };
}
