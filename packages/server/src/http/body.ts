import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { type BodyEncoding, decodeForm, ERROR_CODES } from '@glossa/protocol';
import type { TSchema } from '@sinclair/typebox';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { badRequest, ServiceError } from '../errors.js';
import { LOWER_THREAD_PRIORITY_SOURCE } from '../thread-priority.js';

/** A form-encoded body, kept undecoded until the route knows its schema (`decodeForm` needs it). */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('Request body is not valid UTF-8.');
  }
}

const emptyBody = () => badRequest('Request body is empty.');
const invalidJson = (reason: string) =>
  new ServiceError(400, `Request body is not valid JSON: ${reason}`, ERROR_CODES.invalidJson);

function parseJson(bytes: Buffer): unknown {
  const text = decodeUtf8(bytes);
  if (text.trim() === '') throw emptyBody();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidJson(error instanceof SyntaxError ? error.message : 'nesting too deep');
  }
}

/**
 * JSON and form bodies from this size on are decoded and parsed on a thread: a 10 MiB glossary takes 100–200 ms of
 * decoding and parsing on an idle machine and 0.4–1 s on a loaded one, during which the event loop would
 * serve no other client. Below it, the round trip costs more than it saves.
 */
export const THREAD_PARSE_BYTES = 256 * 1024;
let threadParseBytes = THREAD_PARSE_BYTES;
/** For benchmarks: parse bodies from `bytes` on on the thread (Infinity: all on the event loop, as before). */
export function setThreadParseBytes(bytes: number): void {
  threadParseBytes = bytes;
}

/**
 * A long string of a route's `largeText` field in a JSON or form body, as UTF-8 bytes outside the V8 heap (moved from the parsing
 * thread, not copied): a 10 MiB glossary's entries never become a string of the event loop's heap, whose
 * garbage collection of them held every other request up for 100–400 ms. `chars` is its length in UTF-16
 * units.
 */
export interface LargeText {
  readonly bytes: Uint8Array;
  readonly chars: number;
}

/**
 * What stands for a large text in the parsed body until its route takes it (`largeText`): a string the
 * schema accepts where the text was, which no client can send (a control character and this process's
 * random id), followed by the text's index in the body.
 */
const LARGE_TEXT_MARK = `\u0000large-text:${randomUUID()}:`;
const largeTexts = new WeakMap<FastifyRequest, Map<string, LargeText>>();

/** Keeps the large texts taken out of `request`'s body for its route (`largeText`). */
function keepLargeTexts(request: FastifyRequest, texts: readonly LargeText[]): void {
  if (texts.length === 0) return;
  largeTexts.set(request, new Map(texts.map((text, index) => [LARGE_TEXT_MARK + index, text])));
  threadParses.largeTexts += texts.length;
}

/**
 * The large text that `value` (a field of `request`'s validated body) stands for, or undefined when it is the
 * text itself. A text is taken once: its bytes are meant to be moved on to another thread.
 */
export function largeText(request: FastifyRequest, value: string): LargeText | undefined {
  const texts = largeTexts.get(request);
  const text = texts?.get(value);
  if (text) texts!.delete(value);
  return text;
}

/**
 * The parsing thread: the same steps as `parseJson` and `parseForm`, answers in the order it got the bodies.
 * `inline` asks the event loop to parse it itself (a value the thread cannot send, e.g. nested past its
 * stack). A form comes back as its names and values joined, in UTF-8, with their lengths in UTF-16 units:
 * two moved arrays and one decoding here take 60 ms for 10 MiB, 100,000 small strings 200 ms to copy.
 */
const PARSER_SOURCE = `
${LOWER_THREAD_PRIORITY_SOURCE}
const { parentPort } = require('node:worker_threads');
const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();
const MARK = ${JSON.stringify(LARGE_TEXT_MARK)};
// A route's large text (a string named \`field\`, of \`min\` UTF-16 units or more, well-formed) as UTF-8 into
// \`texts\`, and what stands for it; any other string as it is.
function taken(texts, large, name, value) {
  if (!large || name !== large.field || value.length < large.min || !value.isWellFormed()) return value;
  texts.push({ bytes: encoder.encode(value), chars: value.length });
  return MARK + (texts.length - 1);
}
function takeLarge(value, large) {
  const texts = [];
  const stack = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    const keys = Array.isArray(node) ? node.keys() : Object.keys(node);
    for (const key of keys) {
      const child = node[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
      else if (typeof child === 'string' && key === large.field) node[key] = taken(texts, large, key, child);
    }
  }
  return texts;
}
function form(text, large) {
  for (const part of text.split('&')) {
    try { decodeURIComponent(part.replace(/\\+/g, ' ')); } catch { return parentPort.postMessage({ error: 'form' }); }
  }
  const strings = [];
  const texts = [];
  // A field of a list of objects is named \`list[0].field\`.
  for (const [name, value] of new URLSearchParams(text))
    strings.push(name, taken(texts, large, name.slice(name.lastIndexOf('.') + 1), value));
  const lengths = new Uint32Array(strings.length);
  for (let i = 0; i < strings.length; i++) lengths[i] = strings[i].length;
  const joined = encoder.encode(strings.join(''));
  const moved = [joined.buffer, lengths.buffer, ...texts.map((text) => text.bytes.buffer)];
  parentPort.postMessage({ value: { joined, lengths }, texts }, moved);
}
// The body's chunks, joined here rather than on the event loop.
function joined(chunks) {
  if (chunks.length === 1) return new Uint8Array(chunks[0]);
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(new Uint8Array(chunk), at);
    at += chunk.byteLength;
  }
  return bytes;
}
parentPort.on('message', ({ kind, chunks, large }) => {
  const bytes = joined(chunks);
  let text;
  try { text = utf8.decode(bytes); } catch { return parentPort.postMessage({ error: 'utf8' }); }
  if (kind === 'form') return form(text, large);
  if (text.trim() === '') return parentPort.postMessage({ error: 'empty' });
  let value;
  try { value = JSON.parse(text); } catch (error) {
    if (!(error instanceof SyntaxError)) return parentPort.postMessage({ error: 'inline', bytes: bytes.buffer }, [bytes.buffer]);
    return parentPort.postMessage({ error: 'json', reason: error.message });
  }
  text = undefined;
  const texts = large && typeof value === 'object' && value !== null ? takeLarge(value, large) : [];
  try { parentPort.postMessage({ value, texts }, texts.map((text) => text.bytes.buffer)); }
  catch { parentPort.postMessage({ error: 'inline', bytes: bytes.buffer }, [bytes.buffer]); }
});
`;

type ThreadAnswer =
  | { value: unknown; texts: LargeText[]; error?: undefined }
  | { error: 'utf8' | 'empty' | 'json' | 'form'; reason?: string }
  | { error: 'inline'; bytes: ArrayBuffer };

/** A parsed body: its value and the large texts taken out of it (`LargeText`). */
interface Parsed {
  readonly value: unknown;
  readonly texts: readonly LargeText[];
}

interface Pending {
  resolve(parsed: Parsed): void;
  reject(error: Error): void;
}

/** Bodies the thread has answered for (tests check that large bodies go there). */
export const threadParses = { count: 0, largeTexts: 0 };

/** One thread per process, started on the first large body; it does not keep the process alive. */
let parser: { worker: Worker; pending: Pending[] } | undefined;

function parserThread(): { worker: Worker; pending: Pending[] } {
  if (parser) return parser;
  const worker = new Worker(PARSER_SOURCE, { eval: true, name: 'glossa-body-parser' });
  const thread = { worker, pending: [] as Pending[] };
  worker.on('message', (answer: ThreadAnswer) => {
    const job = thread.pending.shift();
    if (!job) return;
    threadParses.count++;
    if (answer.error === undefined) return job.resolve(answer);
    try {
      if (answer.error === 'utf8') throw badRequest('Request body is not valid UTF-8.');
      if (answer.error === 'empty') throw emptyBody();
      if (answer.error === 'form') throw invalidForm();
      if (answer.error === 'inline') job.resolve({ value: parseJson(Buffer.from(answer.bytes)), texts: [] });
      else throw invalidJson(answer.reason ?? '');
    } catch (error) {
      job.reject(error as Error);
    }
  });
  // A value that cannot be rebuilt here (nested past this thread's stack): what parsing it here gave.
  worker.on('messageerror', () => thread.pending.shift()?.reject(invalidJson('nesting too deep')));
  const fail = (error?: Error) => {
    if (parser === thread) parser = undefined;
    for (const job of thread.pending.splice(0)) {
      job.reject(
        new ServiceError(
          503,
          'The request body could not be parsed now; send it again later.',
          ERROR_CODES.serviceUnavailable,
          undefined,
          { headers: { 'retry-after': '5' }, cause: error },
        ),
      );
    }
  };
  worker.on('error', fail);
  worker.on('exit', () => fail());
  // After the listeners: Node refs a worker's port again when a 'message' listener is added.
  worker.unref();
  parser = thread;
  return thread;
}

/**
 * `bytes`' memory, to be moved to another thread: its own ArrayBuffer, or a copy when it shares one with
 * others (Node's pool of small Buffers, a slice of a larger one).
 */
export const movableBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength &&
  bytes.buffer instanceof ArrayBuffer
    ? bytes.buffer
    : new Uint8Array(bytes).buffer;

/**
 * `parseJson` or `parseForm` on the parsing thread, of the body's chunks as they came: they are moved there,
 * not copied (a Buffer sent as such is serialized element by element: 0.25–0.5 s for 10 MiB on the event
 * loop), and joined there (a `Buffer.concat` of a 10 MiB body held the loop 99–366 ms in bench:abuse
 * profiles); a chunk that shares its memory with others is copied into its own first (Node's HTTP parser
 * gives each chunk its own). Only the value (a form's entries) comes back, and the route's large texts
 * (`LargeText`) as bytes.
 */
function parseOnThread(
  kind: 'json' | 'form',
  chunks: readonly Buffer[],
  large?: { readonly field: string; readonly min: number },
): Promise<Parsed> {
  const own = chunks.map(movableBuffer);
  return new Promise((resolve, reject) => {
    const thread = parserThread();
    thread.pending.push({ resolve, reject });
    thread.worker.postMessage({ kind, chunks: own, large }, own);
  });
}

/**
 * A JSON or form body as its chunks, read as Fastify's `parseAs: 'buffer'` reads it (its limit, its errors)
 * but not joined: `body` gets them, and their length in all.
 */
function readBody(
  request: FastifyRequest,
  payload: NodeJS.ReadableStream & { receivedEncodedLength?: number },
  done: (error: Error | null, value?: unknown) => void,
  body: (chunks: Buffer[], length: number) => void,
): void {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  function onData(chunk: Buffer | string) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += bytes.length;
    if (length > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    chunks.push(bytes);
  }
  function onEnd(error?: Error & { statusCode?: number }) {
    stop();
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      done(error);
    } else if (!Number.isNaN(declared) && (payload.receivedEncodedLength || length) !== declared)
      done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    else body(chunks, length);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

const invalidForm = () => badRequest('Form body is not valid: a percent-escape is malformed or not UTF-8.');

/** Checks every percent-escape decodes to valid UTF-8 (URLSearchParams would silently put U+FFFD instead). */
function parseForm(bytes: Buffer): FormBody {
  const text = decodeUtf8(bytes);
  for (const part of text.split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw invalidForm();
    }
  }
  return new FormBody(new URLSearchParams(text));
}

/** Decodes the thread's UTF-8 as it is: a name that begins with U+FEFF (`%EF%BB%BF`) keeps it. */
const keepBom = new TextDecoder('utf-8', { ignoreBOM: true });

/** `parseForm` on the parsing thread: the entries it found, in their order, into a URLSearchParams here. */
async function parseFormOnThread(request: FastifyRequest, chunks: readonly Buffer[]): Promise<FormBody> {
  const parsed = await parseOnThread('form', chunks, request.routeOptions.config.route?.largeText);
  keepLargeTexts(request, parsed.texts);
  const answer = parsed.value as { joined: Uint8Array; lengths: Uint32Array };
  const { lengths } = answer;
  const joined = keepBom.decode(answer.joined);
  const params = new URLSearchParams();
  let at = 0;
  for (let i = 0; i < lengths.length; i += 2) {
    const valueAt = at + lengths[i]!;
    const end = valueAt + lengths[i + 1]!;
    params.append(joined.slice(at, valueAt), joined.slice(valueAt, end));
    at = end;
  }
  return new FormBody(params);
}

/**
 * Only JSON and form bodies are parsed; any other content type fails with Fastify's media-type error,
 * which the error handler turns into 415 `invalid_content_type`. Routes with other encodings (multipart,
 * uploads) register their own parsers in their own plugin scope.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  // A large body's chunks go to the parsing thread as they came; a small one is joined and parsed here.
  const parser =
    (
      onThread: (request: FastifyRequest, chunks: Buffer[]) => Promise<unknown>,
      here: (bytes: Buffer) => unknown,
    ) =>
    (request: FastifyRequest, payload: unknown, done: (error: Error | null, value?: unknown) => void) =>
      readBody(request, payload as NodeJS.ReadableStream, done, (chunks, length) => {
        if (length >= threadParseBytes) {
          onThread(request, chunks).then(
            (value) => done(null, value),
            (error: Error) => done(error),
          );
          return;
        }
        try {
          done(null, here(Buffer.concat(chunks, length)));
        } catch (error) {
          done(error as Error);
        }
      });
  app.addContentTypeParser(
    'application/json',
    parser(async (request, chunks) => {
      const { value, texts } = await parseOnThread(
        'json',
        chunks,
        request.routeOptions.config.route?.largeText,
      );
      keepLargeTexts(request, texts);
      return value;
    }, parseJson),
  );
  app.addContentTypeParser('application/x-www-form-urlencoded', parser(parseFormOnThread, parseForm));
  // Upload endpoints (a TMX file to a signed URL) and multipart endpoints (a document) take their content
  // type and read the raw stream themselves.
  app.addContentTypeParser('*', (request, _payload, done) => {
    const encodings = request.routeOptions.config.route?.endpoint.encodings ?? [];
    if (encodings.includes('upload') || encodings.includes('multipart')) done(null, undefined);
    else done(unsupportedMediaType(request), undefined);
  });
}

/** The request's body as the object its endpoint's schema describes (form bodies decoded against it). */
export function bodyObject(
  request: FastifyRequest,
  schema: TSchema,
  encodings: readonly BodyEncoding[],
): unknown {
  const body = request.body;
  if (body instanceof FormBody) {
    if (!encodings.includes('form')) throw unsupportedMediaType(request);
    return decodeForm(body.params, schema);
  }
  if (body === undefined) return {};
  if (!encodings.includes('json')) throw unsupportedMediaType(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('Request body must be a JSON object.');
  return body;
}

export function unsupportedMediaType(request: FastifyRequest): ServiceError {
  const type = request.headers['content-type'];
  return new ServiceError(
    415,
    `Unsupported media type${type ? ` '${String(type).slice(0, 100)}'` : ''}: send application/json or application/x-www-form-urlencoded.`,
    ERROR_CODES.invalidContentType,
  );
}
