/**
 * The service the CLI talks to: `GLOSSA_SERVER_URL` (or the config's `service.url`) when set, else the
 * embedded `@glossa/server` started in-process on loopback ports with its data in `service.dataDir`.
 */
import { connectService, type ResolvedConfig, type ServiceConnection } from '@glossa/core';
import {
  baseLanguage,
  ENGINE_FINGERPRINTS_HEADER,
  engineFingerprintOf,
  parseEngineFingerprints,
} from '@glossa/protocol';
import { UsageError } from './errors.js';

export type Service = ServiceConnection;

export async function openService(config: Pick<ResolvedConfig, 'service'>): Promise<Service> {
  const { url, apiKey } = config.service;
  if (url !== undefined && apiKey === undefined) {
    throw new UsageError(`GLOSSA_API_KEY is not set: a key is needed for the service at ${url}`);
  }
  return connectService({ ...config.service, collectUntranslated: true });
}

/**
 * A remote service's engine fingerprint per target (the `X-Glossa-Engine-Fingerprints` header of
 * `GET /v2/languages?type=target`), for the cache key: a model change on the server re-translates. One GET per
 * run; a service that does not send the header (not a Glossa server) yields an empty map: outputs are keyed
 * without, as before. Throws when the service cannot be reached or refuses the key.
 */
export async function remoteEngineFingerprints(
  service: Pick<ResolvedConfig['service'], 'url' | 'apiKey'>,
  fetchImpl: typeof fetch = fetch,
): Promise<ReadonlyMap<string, string>> {
  const { url, apiKey } = service;
  if (url === undefined) return new Map();
  if (apiKey === undefined) {
    throw new UsageError(`GLOSSA_API_KEY is not set: a key is needed for the service at ${url}`);
  }
  const address = new URL('v2/languages?type=target', url.endsWith('/') ? url : `${url}/`);
  const response = await fetchImpl(address, {
    headers: { authorization: `Service-Auth-Key ${apiKey}`, accept: 'application/json' },
  });
  await response.body?.cancel();
  if (!response.ok) {
    throw new UsageError(`the service at ${url} answered ${response.status} to GET /v2/languages`);
  }
  return parseEngineFingerprints(response.headers.get(ENGINE_FINGERPRINTS_HEADER));
}

/** The cache key's `engineFingerprint` of `locale` on a remote service (`undefined`: not told). */
export function remoteFingerprintOf(
  fingerprints: ReadonlyMap<string, string> | undefined,
  locale: string,
): string | undefined {
  const hash = fingerprints && engineFingerprintOf(fingerprints, locale);
  return hash === undefined ? undefined : `service:${hash}`;
}

const plain = (text: string) =>
  text
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** A target translated with words left in the source language (a warning: the translation stands). */
export interface LeftWordsItem {
  readonly locale: string;
  readonly key: string;
  /** The source language the words are in, as the service named it (`en`). */
  readonly source: string;
  readonly words: readonly string[];
}

const wordsIn = (text: string) => new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);

const sameLocale = (eventTarget: string, locale: string) =>
  baseLanguage(eventTarget).toLowerCase() === baseLanguage(locale).toLowerCase() ||
  eventTarget.toLowerCase() === locale.toLowerCase();

/**
 * The run's `keptSource` check over the service's `takeUntranslated()`: each new event (every engine of
 * the list failed a segment, which came back in the source language) is matched to the wave's targets
 * that equal their source, of the same target language, by their text without inline codes. A service
 * that does not tell (not a Glossa server) has no events: nothing is matched. With `onLeft`, the service's
 * `takeLeftWords()` too: each target that differs from its source, holds a segment translated with words
 * left in the source language and still has those words is passed to `onLeft` (a warning, not a failure).
 */
export function keptSourceCheck(
  service: Pick<Service, 'takeUntranslated'> & Partial<Pick<Service, 'takeLeftWords'>>,
  onLeft?: (item: LeftWordsItem) => void,
) {
  return (items: readonly { locale: string; key: string; source: string; target: string }[]) => {
    const kept = new Map<string, string>();
    const left = onLeft ? (service.takeLeftWords?.() ?? []) : [];
    if (left.length > 0) {
      const events = left.map((event) => ({ ...event, text: plain(event.text) }));
      for (const item of items) {
        const text = plain(item.source);
        const target = plain(item.target);
        if (target === text) continue;
        let present: Set<string> | undefined;
        let source = '';
        const found = new Set<string>();
        for (const event of events) {
          if (event.text === '' || !text.includes(event.text) || !sameLocale(event.target, item.locale))
            continue;
          present ??= wordsIn(target);
          for (const word of event.words) if (present.has(word)) found.add(word);
          source ||= event.source;
        }
        if (found.size > 0) onLeft!({ locale: item.locale, key: item.key, source, words: [...found] });
      }
    }
    const fresh = service.takeUntranslated();
    if (fresh.length === 0) return kept;
    const byText = new Map<string, (typeof fresh)[number][]>();
    for (const event of fresh) {
      const text = plain(event.text);
      byText.set(text, [...(byText.get(text) ?? []), event]);
    }
    for (const item of items) {
      const text = plain(item.source);
      if (plain(item.target) !== text) continue;
      const event = byText.get(text)?.find((e) => sameLocale(e.target, item.locale));
      if (!event) continue;
      // One entry per engine and problem: a retry that failed the same way reads `(2 tries)`.
      const tries = new Map<string, number>();
      for (const a of event.attempts) {
        const line = `${a.engine}: ${a.problems.join(', ') || 'failed'}`;
        tries.set(line, (tries.get(line) ?? 0) + 1);
      }
      const tried = [...tries].map(([line, n]) => (n > 1 ? `${line} (${n} tries)` : line)).join('; ');
      kept.set(`${item.locale}\n${item.key}`, `every engine failed, kept in the source language (${tried})`);
    }
    return kept;
  };
}
