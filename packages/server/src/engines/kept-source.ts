/**
 * Which texts of one `/v2/translate` request every engine failed (kept in the source language), for the
 * `X-Glossa-Kept-Source` response header: the chain's events are collected per request (async context)
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
 * Runs `answer` collecting kept-source events; the result and the indexes of `texts` some kept segment
 * belongs to (a sentence of the text, which the text's output still holds).
 */
export async function withKeptSource<T>(
  texts: readonly string[],
  answer: () => Promise<T>,
  outputsOf: (result: T) => readonly string[],
): Promise<{ result: T; kept: number[] }> {
  const events: KeptSource[] = [];
  const result = await store.run(events, answer);
  if (events.length === 0) return { result, kept: [] };
  const outputs = outputsOf(result);
  // A segment translated with some words left in the source language (`left`) stands: the header names
  // only texts answered in the source language, which clients list as failures.
  const segments = [...new Set(events.filter((event) => !event.left).map((event) => words(event.text)))];
  const kept: number[] = [];
  texts.forEach((text, index) => {
    const source = words(text);
    const output = words(outputs[index] ?? '');
    if (segments.some((segment) => segment !== '' && holds(source, segment) && holds(output, segment)))
      kept.push(index);
  });
  return { result, kept };
}
