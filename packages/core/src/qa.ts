/**
 * The QA gate: adapts a segment evaluator such as `evaluateSegments` of @glossa/quality (pure checks:
 * tags, placeholders, numbers, glossary terms, whitespace, punctuation, length) to a run's `qa` seam.
 */
import type { QaCheck, QaFinding } from './report.js';

type Severity = QaFinding['severity'];

/** The shape of `evaluateSegments` from @glossa/quality: one list of issues per segment. */
export type SegmentEvaluator = (
  segments: readonly { readonly source: string; readonly translation: string }[],
  options: { readonly sourceLang?: string; readonly targetLang?: string },
) => readonly (readonly {
  readonly severity: Severity;
  readonly message: string;
  /** The check's own name (`number_mismatch`), preferred in messages over the broader category. */
  readonly check?: string;
  readonly category?: string;
}[])[];

export interface QaGateOptions {
  readonly sourceLang?: string;
  /** Findings below this severity are dropped. Default `minor` (keep all). */
  readonly minSeverity?: Severity;
}

const RANK: Record<Severity, number> = { minor: 0, major: 1, critical: 2 };

export function createQaCheck(evaluate: SegmentEvaluator, options: QaGateOptions = {}): QaCheck {
  const min = RANK[options.minSeverity ?? 'minor'];
  return (items) => {
    const byLocale = new Map<string, (typeof items)[number][]>();
    for (const item of items) {
      const list = byLocale.get(item.locale) ?? [];
      list.push(item);
      byLocale.set(item.locale, list);
    }
    const findings: Omit<QaFinding, 'file'>[] = [];
    for (const [locale, list] of byLocale) {
      const issues = evaluate(
        list.map((i) => ({ source: i.source, translation: i.target })),
        { ...(options.sourceLang !== undefined && { sourceLang: options.sourceLang }), targetLang: locale },
      );
      list.forEach((item, index) => {
        for (const issue of issues[index] ?? []) {
          if (RANK[issue.severity] < min) continue;
          const name = issue.check ?? issue.category;
          const message = name ? `${name}: ${issue.message}` : issue.message;
          findings.push({ locale, key: item.key, severity: issue.severity, message });
        }
      });
    }
    return findings;
  };
}
