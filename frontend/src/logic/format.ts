/** Dates as the person's locale shows them; unparsable values are shown as they came. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

const DAY_MS = 86_400_000;

/**
 * The last day of access, as the person chose it: a date-only expiry is kept as the instant after that day (00:00
 * UTC of the next day, docs/api.md), so such an instant reads as the day before ("Dec 20", not "Dec 21"); an
 * expiry with a time of day reads with it. The year is shown when it is not the current one. Unreadable values are
 * shown as they came; an empty one is "".
 */
export function formatUntilDay(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) return value;
  const endOfADay = !dateOnly && at.getTime() % DAY_MS === 0;
  const day = endOfADay ? new Date(at.getTime() - DAY_MS) : at;
  const sameYear = day.getUTCFullYear() === now.getUTCFullYear();
  const options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) };
  if (dateOnly || endOfADay) return day.toLocaleDateString(undefined, { ...options, timeZone: 'UTC' });
  return day.toLocaleString(undefined, { ...options, hour: '2-digit', minute: '2-digit' });
}

/** "until Dec 20" (see formatUntilDay), or "no end date" for a grant without an expiry. */
export function formatUntil(value: string | null | undefined, now: Date = new Date()): string {
  return value ? `until ${formatUntilDay(value, now)}` : 'no end date';
}

/**
 * How long a grant has left, for people: "expires in 2 days", "expires in 5 hours", "expires in 3 minutes",
 * "expires in less than a minute", or "expired" once past (its removal is on its way). Empty for no expiry or an
 * unreadable one.
 */
export function expiresIn(expiresAt: string | null | undefined, now: Date = new Date()): string {
  if (!expiresAt) return '';
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) return '';
  const ms = at.getTime() - now.getTime();
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (days >= 1) return `expires in ${plural(days, 'day')}`;
  if (hours >= 1) return `expires in ${plural(hours, 'hour')}`;
  if (minutes >= 1) return `expires in ${plural(minutes, 'minute')}`;
  return 'expires in less than a minute';
}

/** A short, person-readable rendering of a value of unknown shape (ops tables). */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(displayValue).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${displayValue(v)}`)
      .join('; ');
  }
  return String(value);
}

/** Today as yyyy-mm-dd in the person's time zone (min of the expiry date input). */
export function todayIso(now: Date = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
