import { describe, expect, it } from 'vitest';
import { expiresIn, formatUntil } from './format';

describe('expiresIn', () => {
  const now = new Date('2026-12-02T10:00:00Z');

  it('says how long a grant has left in the largest whole unit', () => {
    expect(expiresIn('2026-12-04T11:00:00Z', now)).toBe('expires in 2 days');
    expect(expiresIn('2026-12-03T10:00:00Z', now)).toBe('expires in 1 day');
    expect(expiresIn('2026-12-02T15:30:00Z', now)).toBe('expires in 5 hours');
    expect(expiresIn('2026-12-02T10:03:10Z', now)).toBe('expires in 3 minutes');
    expect(expiresIn('2026-12-02T10:00:20Z', now)).toBe('expires in less than a minute');
  });

  it('says expired once past, and nothing without a readable expiry', () => {
    expect(expiresIn('2026-12-02T09:59:59Z', now)).toBe('expired');
    expect(expiresIn(null, now)).toBe('');
    expect(expiresIn('soon', now)).toBe('');
  });
});

describe('formatUntil', () => {
  const now = new Date('2026-12-07T09:00:00Z');

  it('reads a date-only expiry (kept as 00:00 UTC of the next day) as the day the person chose', () => {
    expect(formatUntil('2026-12-21T00:00:00Z', now)).toBe('until Dec 20');
    expect(formatUntil('2026-12-21T00:00:00.000Z', now)).toBe('until Dec 20');
    expect(formatUntil('2027-01-01T00:00:00Z', now)).toBe('until Dec 31');
  });

  it('reads a date as that day and names the year only when it is not this one', () => {
    expect(formatUntil('2026-12-04', now)).toBe('until Dec 4');
    expect(formatUntil('2028-02-02T00:00:00Z', now)).toBe('until Feb 1, 2028');
  });

  it('keeps the time of an expiry that is not a whole day, says when there is none, and shows garbage as it came', () => {
    expect(formatUntil('2026-12-20T15:30:00Z', now)).toMatch(/^until Dec \d+, \d{2}:\d{2}( [AP]M)?$/);
    expect(formatUntil(null, now)).toBe('no end date');
    expect(formatUntil('soon', now)).toBe('until soon');
  });
});
