/** `glossa status` (missing and stale targets, from the lock) and `glossa check` (the CI gate). */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TargetState, TranslationLock } from '@glossa/core';
import { evaluateSegment } from '@glossa/quality';
import { loadCommandConfig, type ProjectFlags, targetLocales } from '../context.js';
import { GateFailure, UsageError } from '../errors.js';
import { warnFailedFiles } from '../file-failures.js';
import { collectInputs } from '../inputs.js';
import { openProject, type Project, readExistingTargets } from '../project.js';
import {
  formatLeftWords,
  LEFT_WORDS_NOTE,
  type LeftWordsWarning,
  leftWordsWarnings,
  where,
} from '../report.js';
import { refreshChrome } from '../vitepress-chrome.js';
import type { CommandEnv } from './translate.js';

export interface Finding {
  readonly locale: string;
  readonly key: string;
  readonly where: string;
  readonly state: TargetState | 'outdated-edit';
}

export interface StatusFlags extends ProjectFlags {
  readonly json?: boolean;
}

/** Per locale: every segment whose target is missing, stale, or a human edit made for an older source. */
async function collectStatus(project: Project, locales: readonly string[]) {
  const lock =
    project.lock ?? (await TranslationLock.open(join(tmpdir(), `glossa-no-lock-${process.pid}.json`)));
  const findings: Finding[] = [];
  const counts: Record<string, Record<string, number>> = {};
  const present = new Map<string, Map<string, string>>();
  // Current targets the lock holds words of the source language for (left by the engine): warnings.
  const leftWords: LeftWordsWarning[] = [];
  for (const locale of locales) {
    const { targets } = await readExistingTargets(project, locale);
    present.set(locale, targets);
    leftWords.push(
      ...leftWordsWarnings(project.segments, locale, project.config.sourceLang ?? '', (segment) =>
        lock.leftWords(locale, segment.key, segment.source, targets.get(segment.key)),
      ),
    );
    const tally: Record<string, number> = { current: 0, missing: 0, stale: 0, 'human-edit': 0, untracked: 0 };
    const outdated = new Set(
      lock
        .staleness(
          locale,
          project.segments.map((s) => ({ key: s.key, source: s.source, target: targets.get(s.key) })),
        )
        .filter((s) => s.state === 'human-edit')
        .map((s) => s.key),
    );
    for (const segment of project.segments) {
      const state = lock.state(locale, segment.key, segment.source, targets.get(segment.key));
      tally[state] = (tally[state] ?? 0) + 1;
      const flagged =
        state === 'missing' || state === 'stale'
          ? state
          : outdated.has(segment.key)
            ? 'outdated-edit'
            : undefined;
      if (flagged) findings.push({ locale, key: segment.key, where: where(segment), state: flagged });
    }
    counts[locale] = tally;
  }
  return { findings, counts, present, leftWords };
}

export async function statusCommand(
  ctx: CommandEnv,
  args: readonly string[],
  flags: StatusFlags,
): Promise<number> {
  const config = await loadCommandConfig(ctx.cwd, args, flags, ctx.env);
  const locales = targetLocales(config, flags);
  // A docs site's chrome catalog as the site's config says now (translate writes the same).
  await refreshChrome(config, (message) => ctx.io.err(`glossa: ${message}`));
  const project = await openProject(config, await collectInputs(config, args, ctx.cwd, locales));
  const failed = warnFailedFiles(ctx.io.err, project.failed);
  const { findings, counts, leftWords } = await collectStatus(project, locales);
  if (flags.json) {
    const failedFiles = project.failed;
    ctx.io.out(
      JSON.stringify(
        { segments: project.segments.length, locales: counts, findings, leftWords, failedFiles },
        null,
        2,
      ),
    );
    return failed > 0 ? 1 : 0;
  }
  for (const locale of locales) {
    const c = counts[locale]!;
    ctx.io.out(
      `${locale}: ${c.current} current, ${c['human-edit']! + c.untracked!} human edits, ${c.stale} stale, ${c.missing} missing`,
    );
  }
  for (const f of findings) ctx.io.out(`  ${f.where} [${f.locale}]: ${f.state}`);
  warnLeftWords(ctx, leftWords);
  return failed > 0 ? 1 : 0;
}

/** The targets with words left in the source language, one warning line per file and locale (stderr). */
function warnLeftWords(ctx: CommandEnv, leftWords: readonly LeftWordsWarning[]): void {
  for (const line of formatLeftWords(leftWords)) ctx.io.err(line);
  if (leftWords.length > 0) ctx.io.err(LEFT_WORDS_NOTE);
}

const SEVERITIES = ['minor', 'major', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];

export interface CheckFlags extends StatusFlags {
  readonly failOn?: string;
}

/** Fails (exit 1) when a target is missing or stale, or a target has a QA issue at `--fail-on` or worse. */
export async function checkCommand(
  ctx: CommandEnv,
  args: readonly string[],
  flags: CheckFlags,
): Promise<number> {
  const failOn = (flags.failOn ?? 'major') as Severity;
  if (!SEVERITIES.includes(failOn)) {
    throw new UsageError(`--fail-on: expected one of ${SEVERITIES.join(', ')}, got '${flags.failOn}'`);
  }
  const config = await loadCommandConfig(ctx.cwd, args, flags, ctx.env);
  const locales = targetLocales(config, flags);
  // A docs site's chrome catalog as the site's config says now (translate writes the same).
  await refreshChrome(config, (message) => ctx.io.err(`glossa: ${message}`));
  const project = await openProject(config, await collectInputs(config, args, ctx.cwd, locales));
  const failed = warnFailedFiles(ctx.io.err, project.failed);
  const { findings, present, leftWords } = await collectStatus(project, locales);
  const gate = findings.filter((f) => f.state === 'missing' || f.state === 'stale');
  const qa: { locale: string; where: string; check: string; severity: Severity; message: string }[] = [];
  for (const locale of locales) {
    const targets = present.get(locale)!;
    for (const segment of project.segments) {
      const target = targets.get(segment.key);
      if (target === undefined) continue;
      const issues = evaluateSegment(
        { source: segment.source, translation: target },
        { sourceLang: config.sourceLang, targetLang: locale },
      );
      for (const issue of issues) {
        qa.push({
          locale,
          where: where(segment),
          check: issue.check,
          severity: issue.severity,
          message: issue.message,
        });
      }
    }
  }
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  const blocking = qa.filter((q) => rank(q.severity) >= rank(failOn));
  const ok = gate.length === 0 && blocking.length === 0 && failed === 0;
  if (flags.json) {
    ctx.io.out(
      JSON.stringify(
        { ok, failOn, segments: project.segments.length, locales, missing: gate, qa, leftWords },
        null,
        2,
      ),
    );
  } else {
    // Warnings: they do not fail the gate.
    warnLeftWords(ctx, leftWords);
    for (const f of gate) ctx.io.out(`${f.where} [${f.locale}]: ${f.state}`);
    for (const q of qa) ctx.io.out(`${q.where} [${q.locale}]: ${q.severity} ${q.check}: ${q.message}`);
    ctx.io.out(
      `${ok ? 'ok' : 'failed'}: ${gate.length} missing or stale, ${blocking.length} QA issue(s) at ${failOn} or worse, ${qa.length - blocking.length} below`,
    );
  }
  if (!ok) throw new GateFailure('check failed');
  return 0;
}
