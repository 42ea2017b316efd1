import { describe, expect, it } from 'vitest';
import { expiresIn } from './format';

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
