/**
 * Which texts of one `/v2/translate` request every engine failed (kept in the source language), for the
 * `X-Glossa-Kept-Source` response header, and which were translated with ordinary words left in the source
 * language inside, for `X-Glossa-Left-Words`: the chain's events are collected per request (async context)
 * and matched to the request's texts by their words without markup (the pipeline sends engines sentences
 * and units of a text, with its inline codes as `<g id>`/`<x id/>`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KeptSource } from './chain.js';
import { words } from './engine.js';

const store = new AsyncLocalStorage<KeptSource[]>();

/** Called by the chain's `onKeptSource`: records the event in the request being answered, if any. */
export function recordKeptSource(event: KeptSource): void {
  store.getStore()?.push(event);
}

/**
 * Whether `text` holds `segment` as the pipeline cuts texts: the whole text, or a sentence of it (starting
 * the text or after a sentence's end, and ending the text or a sentence). "Admin" kept alone is not the
 * "Admin" of "Open the Admin page", which was translated as a whole.
 */
function holds(text: string, segment: string): boolean {
  for (let at = text.indexOf(segment); at !== -1; at = text.indexOf(segment, at + 1)) {
    const before = text.slice(0, at);
    const after = text.slice(at + segment.length);
    const starts = before === '' || /[.!?:;…]\s$/u.test(before);
    const ends =
      after === '' || (/[.!?:;…]$/u.test(segment) && /^\s/u.test(after)) || /^[.!?:;…](\s|$)/u.test(after);
    if (starts && ends) return true;
  }
  return false;
}

/**
 * Runs `answer` collecting kept-source events; the result, the indexes of `texts` some kept segment
 * belongs to (a sentence of the text, which the text's output still holds), and per text (ascending) the
 * words left in the source language inside its translated segments (those still in the text's output).
 */
export async function withKeptSource<T>(
  texts: readonly string[],
  answer: () => Promise<T>,
  outputsOf: (result: T) => readonly string[],
): Promise<{ result: T; kept: number[]; left: Map<number, string[]> }> {
  const events: KeptSource[] = [];
  const result = await store.run(events, answer);
  if (events.length === 0) return { result, kept: [], left: new Map() };
  const outputs = outputsOf(result);
  const left = leftIn(texts, outputs, events);
  return { result, kept: [...keptIn(texts, outputs, events).keys()], left };
}

/**
 * Runs `answer` collecting kept-source events, as `withKeptSource` does; the result and, per index of
 * `texts` (ascending) holding a segment every engine failed that its output still holds, the events of those
 * segments (what each engine did wrong): document translation reports them per segment.
 */
export async function withKeptSegments<T>(
  texts: readonly string[],
  answer: () => Promise<T>,
  outputsOf: (result: T) => readonly string[],
): Promise<{ result: T; kept: Map<number, KeptSource[]> }> {
  const events: KeptSource[] = [];
  const result = await store.run(events, answer);
  if (events.length === 0) return { result, kept: new Map() };
  return { result, kept: keptIn(texts, outputsOf(result), events) };
}

/** Per text holding a segment every engine failed (its output still holds it): those segments' events. */
function keptIn(
  texts: readonly string[],
  outputs: readonly string[],
  events: readonly KeptSource[],
): Map<number, KeptSource[]> {
  // A segment translated with some words left in the source language (`left`) stands: only texts answered
  // in the source language are named, which clients list as failures. One event per segment.
  const segments = new Map<string, KeptSource>();
  for (const event of events) {
    const segment = words(event.text);
    if (!event.left && segment !== '' && !segments.has(segment)) segments.set(segment, event);
  }
  const kept = new Map<number, KeptSource[]>();
  if (segments.size === 0) return kept;
  texts.forEach((text, index) => {
    const source = words(text);
    const output = words(outputs[index] ?? '');
    const found = [...segments].flatMap(([segment, event]) =>
      holds(source, segment) && holds(output, segment) ? [event] : [],
    );
    if (found.length > 0) kept.set(index, found);
  });
  return kept;
}

const wordsOf = (text: string) => new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);

/** Per text holding a segment of a `left` event: the event's words its output still has (in order). */
function leftIn(
  texts: readonly string[],
  outputs: readonly string[],
  events: readonly KeptSource[],
): Map<number, string[]> {
  const left = new Map<number, string[]>();
  const segments = events.flatMap((event) =>
    event.left ? [{ segment: words(event.text), left: event.left }] : [],
  );
  if (segments.length === 0) return left;
  texts.forEach((text, index) => {
    const source = words(text);
    let present: Set<string> | undefined;
    const found = new Set<string>();
    for (const { segment, left: leftWords } of segments) {
      if (segment === '' || !holds(source, segment)) continue;
      present ??= wordsOf(words(outputs[index] ?? ''));
      for (const word of leftWords) if (present.has(word)) found.add(word);
    }
    if (found.size > 0) left.set(index, [...found]);
  });
  return left;
}
