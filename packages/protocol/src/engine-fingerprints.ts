/**
 * Glossa's own response header on `GET /v2/languages?type=target` and `GET /v3/languages`: per target
 * language, a short hash of the engines (provider, host, model, prompt version, order) that translate into
 * it. A client keys its persistent cache with it, so a model change on the server re-translates. Other
 * clients of the protocol ignore the header (an extra response header changes no documented shape).
 * Value: `de=0123456789abcdef,pt-BR=…` (targets in the v3 canonical form, comma-separated).
 */
export const ENGINE_FINGERPRINTS_HEADER = 'x-glossa-engine-fingerprints';

export function formatEngineFingerprints(byTarget: ReadonlyMap<string, string>): string {
  return [...byTarget].map(([target, hash]) => `${target}=${hash}`).join(',');
}

/** Targets lower-cased; malformed entries are skipped. */
export function parseEngineFingerprints(value: string | null | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const entry of (value ?? '').split(',')) {
    const at = entry.indexOf('=');
    const target = entry.slice(0, at).trim().toLowerCase();
    const hash = entry.slice(at + 1).trim();
    if (at > 0 && target && /^[0-9a-f]{8,64}$/.test(hash)) map.set(target, hash);
  }
  return map;
}

/** The fingerprint for `target` (`pt-BR`), else its base language's (`pt`); `undefined` when not listed. */
export function engineFingerprintOf(map: ReadonlyMap<string, string>, target: string): string | undefined {
  const lower = target.toLowerCase();
  return map.get(lower) ?? map.get(lower.split('-')[0]!);
}

/**
 * Glossa's own response header on `POST /v2/translate`: the indexes (0-based, comma-separated, ascending)
 * of the request's texts that hold a segment every engine failed, answered in the source language
 * ("never worse"). Absent when there is none. Other clients ignore it.
 */
export const KEPT_SOURCE_HEADER = 'x-glossa-kept-source';

export function parseKeptSource(value: string | null | undefined): number[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
}
