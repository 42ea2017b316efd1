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
