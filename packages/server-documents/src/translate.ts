/**
 * Translating the texts of one document with the same parts as /v2/translate (text preparation, glossaries,
 * memory, style rules, engines and their output cache), in chunks so a job saves its progress, stops
 * when the server closes, and keeps each chunk's translation for an attempt that resumes it (a restart, a
 * takeover). Billing is not done here: the upload reserved the document's characters. What the engines were
 * sent is stored per chunk in the account's engine usage, as /v2/translate stores it: only the texts an
 * engine was sent (not output-cache hits, memory matches or chunks an earlier attempt kept). The segments
 * every engine failed (kept in the source language: the chain's events) are kept with each chunk too, so
 * that the document's report (`glossa_kept_source`) also names those of chunks an earlier attempt did.
 */
import { createHash } from 'node:crypto';
import type { DocumentKeptSegment, DocumentKeptSource, TranslateRequest } from '@glossa/protocol';
import type { Caller, EngineChoice, KeptSource, ServiceContext } from '@glossa/server/feature';
import {
  createEngineBill,
  engineFormality,
  keepInitialCase,
  loadCustomizations,
  type PreparedText,
  type PrepareOptions,
  prepareText,
  utcDay,
  withKeptSegments,
} from '@glossa/server/feature';
import type { DocumentText } from './formats/format.js';
import { type ChunkKept, chunkKept, documentKept, placed } from './kept-segments.js';

/**
 * What a job keeps of the upload's fields: languages canonical, the source given or detected at upload
 * (absent for a format read by the job, which detects it from the text it reads).
 */
export interface DocumentParameters {
  readonly file_name: string;
  readonly target_lang: string;
  readonly source_lang?: string;
  readonly formality?: TranslateRequest['formality'];
  readonly glossary_ids?: string[];
  readonly style_id?: string;
  readonly translation_memory_id?: string;
  readonly translation_memory_threshold?: number;
}

/** Units per engine call: the job reports progress and checks for a closing server between two calls. */
const CHUNK_UNITS = 200;

const none: ReadonlySet<string> = new Set();
const OPTIONS: Record<DocumentText['mode'], PrepareOptions> = {
  plain: {
    tagHandling: undefined,
    splitSentences: '1',
    splittingTags: none,
    nonSplittingTags: none,
    ignoreTags: none,
    preserveFormatting: false,
  },
  xml: {
    tagHandling: 'xml',
    splitSentences: 'nonewlines',
    splittingTags: none,
    nonSplittingTags: none,
    ignoreTags: none,
    preserveFormatting: false,
  },
  html: {
    tagHandling: 'html',
    splitSentences: 'nonewlines',
    splittingTags: none,
    nonSplittingTags: none,
    ignoreTags: none,
    preserveFormatting: false,
  },
};

/** One text prepared as /v2/translate prepares its text, with its mode's options. */
function prepareOne(text: DocumentText): PreparedText {
  return prepareText(
    text.text,
    text.splittingTags ? { ...OPTIONS[text.mode], splittingTags: text.splittingTags } : OPTIONS[text.mode],
  );
}

export function prepareTexts(texts: readonly DocumentText[]): PreparedText[] {
  return texts.map(prepareOne);
}

/** `billedOf(prepareTexts(texts))`, one text prepared at a time (none kept). */
export function billedOfTexts(texts: readonly DocumentText[]): number {
  return texts.reduce((sum, text) => sum + prepareOne(text).billed, 0);
}

/** Characters billed for the texts: code points without markup, as /v2/translate counts them. */
export function billedOf(prepared: readonly PreparedText[]): number {
  return prepared.reduce((sum, text) => sum + text.billed, 0);
}

/** The request these parameters stand for, for the parts shared with /v2/translate. */
export function asTranslateRequest(parameters: DocumentParameters): TranslateRequest {
  const request: TranslateRequest = { text: [''], target_lang: parameters.target_lang };
  if (parameters.source_lang !== undefined) request.source_lang = parameters.source_lang;
  if (parameters.formality !== undefined) request.formality = parameters.formality;
  if (parameters.glossary_ids !== undefined) request.glossary_ids = parameters.glossary_ids;
  if (parameters.style_id !== undefined) request.style_id = parameters.style_id;
  if (parameters.translation_memory_id !== undefined)
    request.translation_memory_id = parameters.translation_memory_id;
  if (parameters.translation_memory_threshold !== undefined)
    request.translation_memory_threshold = parameters.translation_memory_threshold;
  return request;
}

/** Parameters with the source language known. */
export type SourcedParameters = DocumentParameters & { readonly source_lang: string };

/**
 * Where a job keeps the chunks it translated, so that an attempt that takes the document over (its
 * instance died or stopped) translates only what was not done yet.
 */
export interface ChunkCheckpoints {
  /** The chunks earlier attempts kept: their outputs by the digest of their input. */
  load(): Promise<ReadonlyMap<string, readonly string[]>>;
  /** What the chunks earlier attempts kept had kept in the source language, by digest (none: absent). */
  loadKept(): Promise<ReadonlyMap<string, ChunkKept>>;
  /** Keeps a chunk's outputs, and what it kept in the source language (if any), in one row. */
  save(digest: string, outputs: readonly string[], kept?: ChunkKept): Promise<void>;
}

/** A chunk's digest: its units and whether they are markup (the document's parameters do not change). */
const chunkDigest = (markup: boolean, units: readonly string[]) =>
  createHash('sha256')
    .update(JSON.stringify([markup, units]))
    .digest('hex')
    .slice(0, 32);

export interface TranslateTextsInput {
  readonly texts: readonly DocumentText[];
  readonly parameters: SourcedParameters;
  readonly caller: Caller;
  readonly choice: EngineChoice;
  readonly context: ServiceContext;
  /** Called (and awaited: a checkpoint is saved) after each chunk with the share of units done (0..1). */
  readonly onProgress: (done: number) => void | Promise<void>;
  /** Throws to stop between two chunks (a closing server). */
  readonly checkpoint: () => void;
  /** Chunks kept by an earlier attempt (used as they are), and where to keep this one's. */
  readonly chunks?: ChunkCheckpoints;
}

export interface TranslatedTexts {
  /** The translation of each text, in the same form (code-form markup comes back in code form). */
  readonly outputs: string[];
  /** The segments every engine failed, kept in the source language (chunks of earlier attempts included). */
  readonly kept: DocumentKeptSource;
}

/**
 * The units of one pass's texts (plain, or markup) in order, in chunks of `CHUNK_UNITS` as if every text had
 * been prepared up front: but a text is prepared only when the chunk that reaches it is taken, and assembled
 * (its preparation and its units' outputs dropped) as soon as its last unit is translated, so a document of
 * many texts (an HTML page in parts, `formats/html-parts.ts`) holds a chunk's texts at a time, not all.
 */
class PassUnits {
  readonly #texts: readonly DocumentText[];
  readonly #indexes: number[];
  #next = 0;
  readonly #open = new Map<number, { prepared: PreparedText; outputs: string[]; left: number }>();
  #current: { index: number; prepared: PreparedText; unit: number } | undefined;

  constructor(
    texts: readonly DocumentText[],
    markup: boolean,
    /** Receives each text's translation, assembled, once its last unit is in. */
    private readonly done: (index: number, output: string) => void,
  ) {
    this.#texts = texts;
    this.#indexes = texts.flatMap((text, index) => ((text.mode !== 'plain') === markup ? [index] : []));
  }

  /** The next chunk: [text, unit] pairs and the units' sources (empty once every text is taken). */
  take(): { chunk: [number, number][]; units: string[] } {
    const chunk: [number, number][] = [];
    const units: string[] = [];
    while (chunk.length < CHUNK_UNITS) {
      if (!this.#current || this.#current.unit === this.#current.prepared.units.length) {
        if (this.#next === this.#indexes.length) break;
        const index = this.#indexes[this.#next++]!;
        const prepared = prepareOne(this.#texts[index]!);
        const count = prepared.units.length;
        if (count === 0) {
          this.done(index, prepared.assemble([]));
          continue;
        }
        this.#open.set(index, { prepared, outputs: new Array<string>(count), left: count });
        this.#current = { index, prepared, unit: 0 };
      }
      const current = this.#current;
      chunk.push([current.index, current.unit]);
      units.push(current.prepared.units[current.unit]!);
      current.unit++;
    }
    if (this.#current && this.#current.unit === this.#current.prepared.units.length)
      this.#current = undefined;
    return { chunk, units };
  }

  /** The outputs of a chunk `take` gave; assembles each text whose units are all in. */
  put(chunk: readonly (readonly [number, number])[], outputs: readonly string[]): void {
    chunk.forEach(([index, unit], at) => {
      const open = this.#open.get(index)!;
      open.outputs[unit] = outputs[at]!;
      if (--open.left === 0) {
        this.#open.delete(index);
        this.done(index, open.prepared.assemble(open.outputs));
      }
    });
  }

  /** The share of a text open now that is done (its units in), by text index. */
  openShares(): Iterable<[number, number]> {
    return [...this.#open].map(([index, open]) => [index, 1 - open.left / open.prepared.units.length]);
  }
}

export async function translateTexts(input: TranslateTextsInput): Promise<TranslatedTexts> {
  const { parameters, caller, choice, context, texts } = input;
  const request = asTranslateRequest(parameters);
  const customizations = await loadCustomizations(
    request,
    parameters.source_lang,
    parameters.target_lang,
    caller,
    context,
  );
  const formality = engineFormality(request, choice, parameters.target_lang);
  const outputs = new Array<string>(texts.length);
  // Progress by characters of the texts (their units are counted only as each text is prepared).
  const total = texts.reduce((sum, text) => sum + text.text.length, 0);
  let finished = 0;
  const kept = (await input.chunks?.load()) ?? new Map<string, readonly string[]>();
  const keptSource = (await input.chunks?.loadKept()) ?? new Map<string, ChunkKept>();
  const found: { count: number; segments: DocumentKeptSegment[] }[] = [];
  for (const markup of [false, true]) {
    const pass = new PassUnits(texts, markup, (index, output) => {
      // An assembled text is a tree of concatenations (tens of bytes a piece) until V8 flattens it, which
      // reading a character does: flat, it is its characters only while it waits for the rebuild.
      output.charCodeAt(0);
      outputs[index] = output;
      finished += texts[index]!.text.length;
    });
    for (;;) {
      input.checkpoint();
      const { chunk, units } = pass.take();
      if (chunk.length === 0) break;
      const digest = chunkDigest(markup, units);
      const earlier = kept.get(digest);
      if (earlier && earlier.length === chunk.length) {
        pass.put(chunk, earlier);
        const earlierKept = keptSource.get(digest);
        if (earlierKept) found.push(placed(earlierKept, chunk));
      } else {
        // What the engines were sent for this chunk, stored once it is done (or failed: sent all the same)
        // and before its checkpoint, so an attempt that resumes counts only what it sends again.
        const bill = createEngineBill();
        const engine = (texts: string[], isMarkup: boolean) =>
          context.outputs.translate(choice, texts, { markup: isMarkup, formality, onBilled: bill.onBilled });
        let results: string[];
        let segmentsKept: ReadonlyMap<number, readonly KeptSource[]>;
        try {
          // The chain's events of the segments every engine failed, matched to the chunk's units.
          ({ result: results, kept: segmentsKept } = await withKeptSegments(
            units,
            async () =>
              customizations
                ? (await customizations.translate(units, markup, engine)).outputs
                : await engine(units, markup),
            (answer) => answer,
          ));
        } finally {
          const records = bill.records(caller.account.id, utcDay(new Date()));
          if (records.length > 0) await context.storage.recordEngineUsage(records);
        }
        const translated = units.map((source, index) =>
          keepInitialCase(source, results[index] ?? source, markup, parameters.target_lang),
        );
        pass.put(chunk, translated);
        const thisKept = segmentsKept.size > 0 ? chunkKept(segmentsKept, units, markup) : undefined;
        await input.chunks?.save(digest, translated, thisKept);
        if (thisKept) found.push(placed(thisKept, chunk));
      }
      let done = finished;
      for (const [index, share] of pass.openShares()) done += share * texts[index]!.text.length;
      await input.onProgress(total === 0 ? 1 : done / total);
    }
  }
  return { outputs, kept: documentKept(found) };
}
