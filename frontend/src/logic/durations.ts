import type { Target } from '../api/types';

/** Reads the ISO-8601 durations the catalog sends (`P30D`, `PT8H`, `PT90M`); null for anything else. */
export function parseIsoDuration(iso: string | null | undefined): { amount: number; unit: 'day' | 'hour' | 'minute' } | null {
  if (!iso) return null;
  const days = /^P(\d+)D$/.exec(iso);
  if (days) return { amount: Number(days[1]), unit: 'day' };
  const hours = /^PT(\d+)H$/.exec(iso);
  if (hours) return { amount: Number(hours[1]), unit: 'hour' };
  const minutes = /^PT(\d+)M$/.exec(iso);
  if (minutes) return { amount: Number(minutes[1]), unit: 'minute' };
  return null;
}

/** `P30D` as "30 days", `PT1H` as "1 hour"; the ISO text itself when it is of another shape. */
export function describeDuration(iso: string): string {
  const parsed = parseIsoDuration(iso);
  if (!parsed) return iso;
  return `${parsed.amount} ${parsed.unit}${parsed.amount === 1 ? '' : 's'}`;
}

/**
 * The target's duration rule in a sentence for the expiry field (issue 32): its maximum, and what a request without
 * a date gets (the default, else the maximum, else no end).
 */
export function durationRule(target: Pick<Target, 'maxDuration' | 'defaultDuration' | 'allowsNever'>): string {
  const max = target.maxDuration ? describeDuration(target.maxDuration) : null;
  const fallback = target.defaultDuration ?? target.maxDuration;
  const withoutDate = fallback
    ? `Without a date the access ends after ${describeDuration(fallback)}.`
    : 'Without a date the access has no end.';
  return max ? `This target grants at most ${max}. ${withoutDate}` : withoutDate;
}

/** The last date (yyyy-mm-dd, UTC) the date field may offer under a maximum: a date means the end of that day. */
export function lastDateWithin(maxDuration: string | null | undefined, nowMillis: number): string | undefined {
  const parsed = parseIsoDuration(maxDuration);
  if (!parsed) return undefined;
  const millis = parsed.amount * { day: 86_400_000, hour: 3_600_000, minute: 60_000 }[parsed.unit];
  // the end of the chosen day must be within the maximum: the day before the limit's day, unless the limit is midnight
  const limit = new Date(nowMillis + millis - 1);
  limit.setUTCDate(limit.getUTCDate() - 1);
  return limit.toISOString().slice(0, 10);
}
