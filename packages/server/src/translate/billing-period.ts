/** The monthly billing period (calendar month, UTC) that `now` falls in, as UTC days and instants. */
export interface BillingPeriod {
  readonly start: Date;
  readonly end: Date;
  readonly fromDay: string;
  readonly toDay: string;
  readonly today: string;
}

let cached: { until: number; from: number; period: BillingPeriod } | undefined;

/** The current period, recomputed once per UTC day (it is read on every request). */
export function currentBillingPeriod(): BillingPeriod {
  const now = Date.now();
  if (!cached || now >= cached.until || now < cached.from) {
    const day = now - (now % 86_400_000);
    cached = { from: day, until: day + 86_400_000, period: billingPeriod(new Date(now)) };
  }
  return cached.period;
}

export function billingPeriod(now: Date = new Date()): BillingPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, fromDay: utcDay(start), toDay: utcDay(end), today: utcDay(now) };
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
