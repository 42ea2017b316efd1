import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createPoller,
  isFinished,
  MAX_DELAY_MS,
  nextDelay,
  type PollOutcome,
  type Timers,
  type VisibilitySource,
} from './polling';

interface View {
  status: string | null;
  rev: number;
}

const timers: Timers = {
  setTimeout: (cb, ms) => setTimeout(cb, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

function visibility() {
  let hidden = false;
  const listeners = new Set<() => void>();
  const source: VisibilitySource = {
    isHidden: () => hidden,
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return {
    source,
    set(next: boolean) {
      hidden = next;
      for (const l of listeners) l();
    },
  };
}

/** A poller whose answers come from `answers` (the last one repeats); records when each load happened. */
function setup(answers: Array<PollOutcome<View>>, hidden = false) {
  const vis = visibility();
  if (hidden) vis.set(true);
  const loadTimes: number[] = [];
  let i = 0;
  const start = Date.now();
  const poller = createPoller<View>({
    load: async () => {
      loadTimes.push(Date.now() - start);
      const answer = answers[Math.min(i, answers.length - 1)];
      i++;
      if (!answer) throw new Error('no answer');
      return answer;
    },
    fingerprint: (v) => `${v.status}/${v.rev}`,
    isFinished: (v) => isFinished(v),
    timers,
    visibility: vis.source,
  });
  return { poller, loadTimes, vis };
}

const data = (status: string | null, rev = 0): PollOutcome<View> => ({ kind: 'data', value: { status, rev } });

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('nextDelay', () => {
  it('starts at 1 s, doubles up to 15 s and resets on change', () => {
    const schedule: number[] = [];
    let d: number | null = null;
    for (let n = 0; n < 7; n++) {
      d = nextDelay(d, n === 0);
      schedule.push(d);
    }
    expect(schedule).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(nextDelay(8000, true)).toBe(1000);
    expect(nextDelay(null, false)).toBe(1000);
  });
});

describe('poller', () => {
  it('polls on the backoff schedule while nothing changes', async () => {
    const { poller, loadTimes } = setup([data('MERGING')]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 15000 + 15000);
    // first load at 0, then after 1, 2, 4, 8, 15, 15 s
    expect(loadTimes).toEqual([0, 1000, 3000, 7000, 15000, 30000, 45000]);
    expect(poller.snapshot()).toMatchObject({ phase: 'waiting', delayMs: MAX_DELAY_MS });
    poller.dispose();
  });

  it('goes back to 1 s after a change', async () => {
    const { poller, loadTimes } = setup([data('APPROVAL_SENT', 0), data('APPROVAL_SENT', 0), data('APPROVAL_SENT', 0), data('MERGING', 1), data('MERGING', 1)]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 1000 + 2000);
    // 0 (first), +1 s, +2 s, +4 s (changed here), then +1 s, +2 s
    expect(loadTimes).toEqual([0, 1000, 3000, 7000, 8000, 10000]);
    poller.dispose();
  });

  it.each(['VALIDATED', 'REJECTED', 'CLOSED'])('stops at the final state %s', async (status) => {
    const { poller, loadTimes } = setup([data('MERGED'), data(status, 1)]);
    poller.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loadTimes).toHaveLength(2);
    expect(poller.snapshot()).toMatchObject({ phase: 'stopped', stopReason: 'finished' });
  });

  it('stops when a re-application replaced the request (status null)', async () => {
    const { poller, loadTimes } = setup([data(null)]);
    poller.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loadTimes).toHaveLength(1);
  });

  it('keeps polling with backoff on failed states and transient errors, stops on fatal errors', async () => {
    const transient = setup([data('HANDLE_FAILED'), { kind: 'error', fatal: false }, data('HANDLE_FAILED')]);
    transient.poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(transient.loadTimes).toEqual([0, 1000, 3000, 7000]);
    transient.poller.dispose();

    const fatal = setup([data('MERGING'), { kind: 'error', fatal: true }]);
    fatal.poller.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fatal.loadTimes).toHaveLength(2);
    expect(fatal.poller.snapshot()).toMatchObject({ phase: 'stopped', stopReason: 'error' });
  });

  it('waits at least Retry-After after a 429', async () => {
    const { poller, loadTimes } = setup([data('MERGING'), { kind: 'error', fatal: false, retryAfterSeconds: 10 }, data('MERGING')]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 10_000);
    expect(loadTimes).toEqual([0, 1000, 11000]);
    poller.dispose();
  });

  it('keeps polling through a stretch of 503s, never sooner than Retry-After, backing off up to the cap', async () => {
    const unavailable: PollOutcome<View> = { kind: 'error', fatal: false, retryAfterSeconds: 5 };
    const { poller, loadTimes } = setup([data('MERGING'), unavailable, unavailable, unavailable, unavailable, data('MERGED')]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 5000 + 10_000 + MAX_DELAY_MS + MAX_DELAY_MS);
    expect(loadTimes).toEqual([0, 1000, 6000, 16_000, 31_000, 46_000]);
    expect(poller.snapshot().phase).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(loadTimes).toHaveLength(7); // the state changed: back to the initial delay
    poller.dispose();
  });

  it('pauses while the tab is hidden and looks at once when it shows again', async () => {
    const { poller, loadTimes, vis } = setup([data('MERGING')]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000); // loads at 0, 1000, 3000; waiting 4 s
    vis.set(true);
    expect(poller.snapshot().phase).toBe('paused');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(loadTimes).toEqual([0, 1000, 3000]);
    vis.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(loadTimes).toEqual([0, 1000, 3000, 123000]);
    await vi.advanceTimersByTimeAsync(1000); // back to the initial delay
    expect(loadTimes).toEqual([0, 1000, 3000, 123000, 124000]);
    poller.dispose();
  });

  it('does not start polling in a hidden tab until it is shown', async () => {
    const { poller, loadTimes, vis } = setup([data('MERGING')], true);
    poller.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(loadTimes).toEqual([]);
    vis.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(loadTimes).toEqual([10000]);
    poller.dispose();
  });

  it('refreshNow polls at once and restarts the backoff; dispose stops everything', async () => {
    const { poller, loadTimes } = setup([data('MERGING')]);
    poller.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 1000); // waiting 4 s since 3000
    poller.refreshNow();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(loadTimes).toEqual([0, 1000, 3000, 4000, 5000]);
    poller.dispose();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loadTimes).toHaveLength(5);
  });
});
