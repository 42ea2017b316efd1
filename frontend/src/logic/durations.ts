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

/** The units the request form offers for "for …" (issue 32 item 3). */
export type ForUnit = 'hours' | 'days';

/** The `duration` a request "for `amount` `unit`" sends (`PT8H`, `P7D`); null unless a whole number of at least 1. */
export function isoOfFor(amount: string, unit: ForUnit): string | null {
  const text = amount.trim();
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1) return null;
  return unit === 'hours' ? `PT${Number(text)}H` : `P${Number(text)}D`;
}

/**
 * What "for …" means, for the field's hint: the time starts when the approved change is written to the grant file
 * (a slow approval does not shorten it; the pipeline and deploy minutes count), within the target's maximum.
 */
export function forDurationRule(target: Pick<Target, 'maxDuration'> | undefined): string {
  const counts =
    'The time starts when the approved change is written to the grant file, so a slow approval does not shorten it; ' +
    'the minutes of its pipeline and deploy count.';
  return target?.maxDuration ? `${counts} This target grants at most ${describeDuration(target.maxDuration)}.` : counts;
}

/**
 * The end a request "for `amount` `unit`" would get if its approved change were written at `nowMillis` (to the minute,
 * ISO-8601): what the preview shows; the real end is fixed later, when the approved change is written. Null unless
 * `amount` is valid ({@link isoOfFor}).
 */
export function endIfWrittenAt(amount: string, unit: ForUnit, nowMillis: number): string | null {
  if (!isoOfFor(amount, unit)) return null;
  const millis = Number(amount.trim()) * (unit === 'hours' ? 3_600_000 : 86_400_000);
  return new Date(Math.floor((nowMillis + millis) / 60_000) * 60_000).toISOString().replace('.000Z', 'Z');
}
