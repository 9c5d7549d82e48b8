/** Progress while a run works, and the summary at its end. */
import type { RunEvent, RunFailure, RunReport, RunSegment } from '@glossa/core';
import type { CliIo } from './io.js';

const n = (value: number) => value.toLocaleString('en-US');

/** Progress of one locale's run: a redrawn bar on a TTY, one plain line per request otherwise. */
export function createProgress(io: CliIo, locale: string, totalRequests: number) {
  const width = 24;
  let characters = 0;
  const draw = (done: number) => {
    const filled =
      totalRequests === 0 ? width : Math.round((Math.min(done, totalRequests) / totalRequests) * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    const retries = done > totalRequests ? ` + ${done - totalRequests} retried` : '';
    process.stderr.write(
      `\r${locale.padEnd(6)} ${bar} ${Math.min(done, totalRequests)}/${totalRequests} requests${retries}, ${n(characters)} characters`,
    );
  };
  if (io.isTTY && totalRequests > 0) draw(0);
  return {
    onEvent(event: RunEvent) {
      if (event.type === 'request') {
        characters += event.billedCharacters;
        if (io.isTTY) draw(event.done);
        else {
          const failed = event.error ? ` failed: ${event.error.message}` : '';
          // Past the planned requests come the retries (codes that came back moved, sent again).
          const which =
            event.done <= totalRequests
              ? `request ${event.done}/${totalRequests}`
              : `retry request ${event.done - totalRequests}`;
          io.err(
            `glossa: ${locale}: ${which} (${event.texts} texts, ${n(event.billedCharacters)} characters)${failed}`,
          );
        }
      } else if (event.type === 'done' && io.isTTY && totalRequests > 0) {
        draw(event.report.requests);
        process.stderr.write('\n');
      }
    },
  };
}

/** `docs/intro.md:12:3` (or the segment key when the position is unknown). */
export function where(failure: Pick<RunFailure, 'file' | 'position' | 'key'>): string {
  if (failure.file === undefined) return failure.key;
  if (failure.position === undefined)
    return `${failure.file} (${failure.key.slice(failure.key.indexOf('#') + 1)})`;
  return `${failure.file}:${failure.position.line}:${failure.position.column}`;
}

/** The summary lines of a run. */
export function formatReport(report: RunReport, locales: readonly string[]): string[] {
  const lines = [
    `segments:           ${n(report.segments)} (${locales.join(', ')})`,
    `  translated:       ${n(report.translated)}`,
    `  cache hits:       ${n(report.cacheHits)}`,
    `  up to date:       ${n(report.unchanged)}`,
    `  human edits kept: ${n(report.humanEdits)}`,
    `requests:           ${n(report.requests)}`,
    `billed characters:  ${n(report.billedCharacters)}`,
    `failures:           ${n(report.failures.length)}`,
  ];
  for (const f of report.failures) lines.push(`  ${where(f)} [${f.locale}]: ${f.reason}`);
  return lines;
}

/** A target translated with words left in the source language, with where its segment is. */
export interface LeftWordsWarning extends Pick<RunFailure, 'file' | 'position' | 'key' | 'locale'> {
  /** The source language (`en`). */
  readonly source: string;
  readonly words: readonly string[];
}

/**
 * The warnings of `locale`'s segments, in the project's order: `wordsOf` tells the words left in a
 * segment's target (none: no warning); `source` is the source language (`en`).
 */
export function leftWordsWarnings(
  segments: readonly RunSegment[],
  locale: string,
  source: string,
  wordsOf: (segment: RunSegment) => readonly string[],
): LeftWordsWarning[] {
  const warnings: LeftWordsWarning[] = [];
  for (const segment of segments) {
    const words = wordsOf(segment);
    if (words.length === 0) continue;
    warnings.push({
      locale,
      key: segment.key,
      ...(segment.file !== undefined && { file: segment.file }),
      ...(segment.position !== undefined && { position: segment.position }),
      source,
      words,
    });
  }
  return warnings;
}

/** The closing line under the warnings of `formatLeftWords`. */
export const LEFT_WORDS_NOTE =
  "glossa: words left in the source language are warnings, not failures; a name or a term kept on purpose goes in the config's doNotTranslate";

/** Texts listed per warning line; the rest of the file's are counted. */
const MAX_LEFT_PER_LINE = 10;

/** `English` for `en`; the code itself where the runtime has no name for it. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * One warning line per file and locale for the targets translated with words left in the source language
 * (not failures: the translation stands): `docs/a.md [es]: warning: 1 text translated with English words
 * left: 'picker' (3:1)`.
 */
export function formatLeftWords(warnings: readonly LeftWordsWarning[]): string[] {
  const byFile = new Map<string, LeftWordsWarning[]>();
  for (const warning of warnings) {
    const file = `${warning.file ?? warning.key}\n${warning.locale}`;
    byFile.set(file, [...(byFile.get(file) ?? []), warning]);
  }
  return [...byFile.values()].map((list) => {
    const { file, key, locale, source } = list[0]!;
    const texts = list
      .slice(0, MAX_LEFT_PER_LINE)
      .map((warning) => {
        const words = warning.words.map((word) => `'${word}'`).join(', ');
        const at =
          warning.file !== undefined && warning.position
            ? ` (${warning.position.line}:${warning.position.column})`
            : '';
        return `${words}${at}`;
      })
      .join('; ');
    const more = list.length > MAX_LEFT_PER_LINE ? `; and ${list.length - MAX_LEFT_PER_LINE} more` : '';
    const language = source === '' ? 'source-language' : languageName(source);
    return `${file ?? key} [${locale}]: warning: ${n(list.length)} text${list.length === 1 ? '' : 's'} translated with ${language} words left: ${texts}${more}`;
  });
}
