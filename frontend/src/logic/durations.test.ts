import { describe, expect, it } from 'vitest';
import { describeDuration, durationRule, endIfWrittenAt, isoOfFor, lastDateWithin, parseIsoDuration } from './durations';

describe('durations', () => {
  it('reads the catalog\'s ISO-8601 durations and says them for people', () => {
    expect(parseIsoDuration('P30D')).toEqual({ amount: 30, unit: 'day' });
    expect(parseIsoDuration('PT8H')).toEqual({ amount: 8, unit: 'hour' });
    expect(parseIsoDuration('P1M')).toBeNull();
    expect(describeDuration('P30D')).toBe('30 days');
    expect(describeDuration('PT1H')).toBe('1 hour');
    expect(describeDuration('P1Y')).toBe('P1Y');
  });

  it('states the maximum and what a request without a date gets', () => {
    expect(durationRule({ maxDuration: 'P30D', defaultDuration: 'P7D', allowsNever: false })).toBe(
      'This target grants at most 30 days. Without a date the access ends after 7 days.',
    );
    expect(durationRule({ maxDuration: 'PT8H', defaultDuration: null, allowsNever: false })).toBe(
      'This target grants at most 8 hours. Without a date the access ends after 8 hours.',
    );
    expect(durationRule({ maxDuration: null, defaultDuration: null, allowsNever: true })).toBe(
      'Without a date the access has no end.',
    );
  });

  it('offers dates whose end of day is within the maximum', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    // 30 days ahead is 2027-01-06T10:00Z: the end of 2027-01-05 is within, the end of 2027-01-06 is not
    expect(lastDateWithin('P30D', now)).toBe('2027-01-05');
    expect(lastDateWithin(null, now)).toBeUndefined();
  });
});

describe('isoOfFor (issue 32 item 3)', () => {
  it('is PT<n>H for hours and P<n>D for days, and null for anything but a whole number of at least 1', () => {
    expect(isoOfFor('8', 'hours')).toBe('PT8H');
    expect(isoOfFor(' 7 ', 'days')).toBe('P7D');
    expect(isoOfFor('08', 'hours')).toBe('PT8H');
    for (const bad of ['', '0', '-1', '1.5', '8h', 'eight', '12345']) expect(isoOfFor(bad, 'hours')).toBeNull();
  });
});

describe('endIfWrittenAt (issue 32 item 3)', () => {
  it('is now plus the time, to the minute, and null for an invalid amount', () => {
    const now = Date.parse('2026-12-07T10:00:30Z');
    expect(endIfWrittenAt('8', 'hours', now)).toBe('2026-12-07T18:00:00Z');
    expect(endIfWrittenAt('2', 'days', now)).toBe('2026-12-09T10:00:00Z');
    expect(endIfWrittenAt('0', 'days', now)).toBeNull();
  });
});
