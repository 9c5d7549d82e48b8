/**
 * Docusaurus's translation files (`docusaurus write-translations`: `code.json`, the theme's `navbar.json`
 * and `footer.json`, the docs plugin's `current.json`): `{ "<key>": { "message", "description" } }`. Each
 * message is read in Docusaurus's own syntax (`extractDocusaurus`: `{name}` placeholders, apostrophes as
 * text, `|` plural forms); the description is a note to the translator and stays as written. Values that
 * are not prose (a URL, an identifier) are not sent.
 */
import { type CodeMap, extractDocusaurus, type IcuExtraction, notProse, type Segment } from '@glossa/core';
import type { Extracted } from './extracted.js';

type Entry = { message?: unknown; description?: unknown; [other: string]: unknown };

/** Parses a translation file; throws a `SyntaxError` or `TypeError` that says what is wrong. */
function parse(text: string): Record<string, unknown> {
  const json: unknown = JSON.parse(text);
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new TypeError(
      `a Docusaurus translation file is a JSON object; got ${Array.isArray(json) ? 'an array' : typeof json}`,
    );
  return json as Record<string, unknown>;
}

interface Message {
  /** The entry's key; `.message` for `{ message, description }` entries, none for a plain string. */
  readonly key: string;
  readonly field: 'message' | undefined;
  readonly extraction: IcuExtraction;
}

function messagesOf(json: Record<string, unknown>, id: string): Message[] {
  const messages: Message[] = [];
  for (const [key, value] of Object.entries(json)) {
    const entry = value as Entry;
    const field = typeof value === 'string' ? undefined : 'message';
    const text =
      typeof value === 'string' ? value : typeof entry?.message === 'string' ? entry.message : undefined;
    if (text === undefined || notProse(text)) continue;
    const segmentKey = `${id}#${key}${field ? `.${field}` : ''}`;
    messages.push({ key, field, extraction: extractDocusaurus(text, segmentKey) });
  }
  return messages;
}

/** A Docusaurus translation file as an extraction: its messages' segments, and the file rebuilt. */
export function extractDocusaurusFile(text: string, id: string): Extracted {
  const json = parse(text);
  const messages = messagesOf(json, id);
  const segments: Segment[] = [];
  const codes: Record<string, CodeMap> = {};
  for (const m of messages)
    for (const s of m.extraction.segments) {
      segments.push({ key: s.key, source: s.source });
      codes[s.key] = s.codes;
    }
  return {
    segments,
    codes,
    messages: [],
    syntax: { name: 'docusaurus', detected: false },
    async write(targets) {
      const out: Record<string, unknown> = structuredClone(json);
      for (const m of messages) {
        const message = m.extraction.rebuild(targets);
        if (m.field === undefined) out[m.key] = message;
        else out[m.key] = { ...(out[m.key] as Entry), message };
      }
      return `${JSON.stringify(out, null, 2)}\n`;
    },
  };
}

/** The targets in a translated file, by the source's segment keys. */
export function readDocusaurusTargets(output: string, id: string, source: Extracted): Map<string, string> {
  const keys = new Set(source.segments.map((s) => s.key));
  const targets = new Map<string, string>();
  for (const m of messagesOf(parse(output), id))
    for (const s of m.extraction.segments) if (keys.has(s.key)) targets.set(s.key, s.source);
  return targets;
}
