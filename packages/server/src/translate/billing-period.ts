/** The monthly billing period (calendar month, UTC) that `now` falls in, as UTC days and instants. */
export function billingPeriod(now: Date = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end, fromDay: utcDay(start), toDay: utcDay(end), today: utcDay(now) };
}

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
