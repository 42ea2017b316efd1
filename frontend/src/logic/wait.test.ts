import { describe, expect, it } from 'vitest';
import type { RequestWait } from '../api/types';
import { describeWait, formatSpan } from './wait';

const NOW = new Date('2026-03-02T14:00:00Z');

function wait(overrides: Partial<RequestWait>): RequestWait {
  return {
    waitingFor: 'SERVICE',
    since: '2026-03-02T13:48:00Z',
    deadline: null,
    nextAttemptAt: null,
    checkedEverySeconds: null,
    failing: null,
    ...overrides,
  };
}

function hhmm(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

describe('describeWait', () => {
  it('says how long the pipeline is waited for, how often it is checked and when a person is asked', () => {
    const text = describeWait(
      wait({ waitingFor: 'PIPELINE', checkedEverySeconds: 60, deadline: '2026-03-03T13:48:00Z' }),
      NOW,
    );
    expect(text).toBe('Waiting for the pipeline for 12 min; checked every minute; a person is asked after 24 h.');
  });

  it('says which system is failing, when the next attempt is and when the retries stop', () => {
    const text = describeWait(
      wait({ failing: 'gitlab', nextAttemptAt: '2026-03-02T14:05:00Z', deadline: '2026-03-02T14:48:00Z' }),
      NOW,
    );
    expect(text).toBe(`GitLab is failing; next attempt at ${hhmm('2026-03-02T14:05:00Z')}, giving up at ${hhmm('2026-03-02T14:48:00Z')}.`);
  });

  it('says a failed request is retried automatically', () => {
    expect(describeWait(wait({ failing: 'service', deadline: '2026-03-02T14:48:00Z' }), NOW)).toContain(
      'retried automatically; giving up at',
    );
  });

  it('names the approver, the deployment and a person', () => {
    expect(describeWait(wait({ waitingFor: 'APPROVER', since: '2026-03-02T12:00:00Z' }), NOW)).toBe(
      "Waiting for the approver's decision for 2 h.",
    );
    expect(describeWait(wait({ waitingFor: 'DEPLOY_PIPELINE' }), NOW)).toContain('waiting for 12 min for the deployment');
    expect(describeWait(wait({ waitingFor: 'MAINTAINERS' }), NOW)).toContain('a person has to act');
    expect(describeWait(wait({ waitingFor: 'SOMETHING_NEW' }), NOW)).toBe('Being processed for 12 min.');
  });

  it('formats spans in plain units', () => {
    expect(formatSpan(45_000)).toBe('45 s');
    expect(formatSpan(12 * 60_000)).toBe('12 min');
    expect(formatSpan(125 * 60_000)).toBe('2 h 5 min');
    expect(formatSpan(7 * 24 * 3_600_000)).toBe('7 days');
    expect(formatSpan(-5)).toBe('0 s');
  });
});
