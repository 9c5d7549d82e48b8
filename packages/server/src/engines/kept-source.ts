/**
 * Which texts of one `/v2/translate` request every engine failed (kept in the source language), for the
 * `X-Glossa-Kept-Source` response header: the chain's events are collected per request (async context)
 * and matched to the request's texts by their words without markup (the pipeline sends engines sentences
 * and units of a text, with its inline codes as `<g id>`/`<x id/>`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { KeptSource } from './chain.js';

const store = new AsyncLocalStorage<KeptSource[]>();

/** Called by the chain's `onKeptSource`: records the event in the request being answered, if any. */
export function recordKeptSource(event: KeptSource): void {
  store.getStore()?.push(event);
}

const words = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Runs `answer` collecting kept-source events; the result and the indexes of `texts` some kept segment
 * belongs to (its words are in the text, and the text's output still holds them).
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
  const segments = [...new Set(events.map((event) => words(event.text)))].filter((text) => text !== '');
  const kept: number[] = [];
  texts.forEach((text, index) => {
    const source = words(text);
    const output = words(outputs[index] ?? '');
    if (segments.some((segment) => source.includes(segment) && output.includes(segment))) kept.push(index);
  });
  return { result, kept };
}
