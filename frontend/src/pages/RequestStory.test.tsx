import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestView } from '../api/types';
import { noticeFor } from '../logic/notify';
import { stepTimes } from '../logic/stepTimes';
import { awake } from '../logic/useRequestFollow';
import { nextMove } from '../logic/wait';
import { envelope } from '../test/fetchMock';
import { entry, TARGETS, view } from '../test/fixtures';
import { click, flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { RequestPage, requestTitle } from './RequestPage';

const session = testSession({
  after: () => {
    delete (window as unknown as { Notification?: unknown }).Notification;
    vi.restoreAllMocks();
    vi.useRealTimers();
  },
});
const { render } = session;
let r: Rendered | null = null;

/** A stand-in for the browser's Notification API: records prompts and notifications. */
class FakeNotification {
  static permission: NotificationPermission = 'default';
  static prompts = 0;
  static shown: { title: string; options?: NotificationOptions }[] = [];
  static async requestPermission(): Promise<NotificationPermission> {
    FakeNotification.prompts++;
    FakeNotification.permission = 'granted';
    return 'granted';
  }
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
}

beforeEach(() => {
  FakeNotification.permission = 'default';
  FakeNotification.prompts = 0;
  FakeNotification.shown = [];
  (window as unknown as { Notification: unknown }).Notification = FakeNotification;
});

const MINUTE = 60_000;

function following(answers: RequestView[]) {
  let n = 0;
  return session.backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('OK', answers[Math.min(n++, answers.length - 1)])));
}

describe('a request tells its story', () => {
  it('says the state in the page title, follows it to the end, and gives the title back when left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    following([view({ status: 'APPROVAL_SENT' }), view({ status: 'VALIDATED', hint: { code: 'NONE', message: 'Done.' } })]);
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(document.title).toBe('Waiting for approval · Request · Changeflow');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await flush();
    expect(document.title).toBe('In effect · Request · Changeflow');
    await r.unmount();
    r = null;
    expect(document.title).toBe('Changeflow');
  });

  it('says how long it is in this step, how long each step took, and who acts next until when', async () => {
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE).toISOString();
    const deadline = new Date(now + 3 * 3_600_000).toISOString();
    following([
      view({
        status: 'APPROVAL_SENT',
        timeline: [entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING', at(15)), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT', at(12))],
        waiting: { waitingFor: 'APPROVER', since: at(12), deadline, nextAttemptAt: null, checkedEverySeconds: null, failing: null },
      }),
    ]);
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(r.byTestId('in-this-step').textContent).toBe('In this step (Waiting for approval) for 12 min.');
    expect(r.allByTestId('step-time').map((row) => [row.dataset.status, row.textContent])).toEqual([
      ['APPROVAL_SENDING', 'Sending for approval3 min'],
      ['APPROVAL_SENT', 'Waiting for approval12 min so far'],
    ]);
    expect(r.byTestId('request-next').textContent).toMatch(/^Next: the approver, until \S.*\.$/);
  });

  it('asks for notifications only on a click, then tells a person elsewhere that the request finished', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    following([view({ status: 'MERGED' }), view({ status: 'MERGED' }), view({ status: 'VALIDATED', hint: { code: 'NONE', message: 'Done.' } })]);
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(FakeNotification.prompts).toBe(0);
    await click(r.byTestId('notify-me'));
    await flush();
    expect(FakeNotification.prompts).toBe(1);
    expect(r.byTestId('notify-status').dataset.permission).toBe('granted');

    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await flush();
    expect(FakeNotification.shown).toHaveLength(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    await flush();
    expect(FakeNotification.shown).toEqual([
      { title: 'Your request is in effect', options: { body: 'db-prod-readonly for alice. Done.', tag: 'changeflow-op-1' } },
    ]);
  });

  it('shows no notification while the person looks at the page, and no button once the request finished', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    FakeNotification.permission = 'granted';
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    following([view({ status: 'MERGED' }), view({ status: 'VALIDATED' })]);
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await flush();
    expect(FakeNotification.shown).toHaveLength(0);
    expect(r.queryByTestId('notify-me')).toBeNull();
    expect(r.queryByTestId('notify-status')).toBeNull();
  });
});

describe('story logic', () => {
  it('notices a final state and a request that needs the person, never the first answer or an unchanged one', () => {
    const sent = view({ status: 'APPROVAL_SENT' });
    expect(noticeFor(null, view({ status: 'VALIDATED' }))).toBeNull();
    expect(noticeFor(sent, sent)).toBeNull();
    expect(noticeFor(sent, view({ status: 'REJECTED', hint: { code: 'CAN_REAPPLY', message: 'You can apply again.' } }))).toEqual({
      title: 'Your request: Rejected',
      body: 'db-prod-readonly for alice. You can apply again.',
    });
    expect(
      noticeFor(view({ status: 'MERGING' }), view({ status: 'HANDLE_FAILED', hint: { code: 'CONTACT_MAINTAINERS', message: 'Ask the maintainers.' } })),
    ).toEqual({ title: 'Your request needs you', body: 'db-prod-readonly for alice: Ask the maintainers.' });
    expect(noticeFor(sent, view({ status: 'MERGING' }))).toBeNull();
  });

  it('splits the timeline into stretches per state; a final state has no running time', () => {
    const done = stepTimes(
      {
        status: 'VALIDATED',
        timeline: [
          entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING', '2026-01-01T10:00:00Z'),
          entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT', '2026-01-01T10:01:00Z'),
          entry('APPROVAL_GRANTED_MERGE', 'MERGING', '2026-01-01T11:01:00Z'),
          entry('HANDLE_STARTED', 'MERGING', '2026-01-01T11:02:00Z'),
          entry('MERGED', 'MERGED', '2026-01-01T11:21:00Z'),
          entry('DEPLOYED', 'VALIDATED', '2026-01-01T11:30:00Z'),
        ],
      },
      new Date('2026-01-01T12:00:00Z'),
    );
    expect(done.map((t) => [t.status, t.ms, t.current])).toEqual([
      ['APPROVAL_SENDING', 60_000, false],
      ['APPROVAL_SENT', 3_600_000, false],
      ['MERGING', 20 * MINUTE, false],
      ['MERGED', 9 * MINUTE, false],
      ['VALIDATED', null, false],
    ]);
    expect(stepTimes({ status: 'APPROVAL_SENT', timeline: [] })).toEqual([]);
  });

  it('names who acts next and until when; a hidden tab keeps looking only while notifications are wanted', () => {
    expect(nextMove({ waitingFor: 'SERVICE', since: '2026-01-01T10:00:00Z', deadline: null, nextAttemptAt: null, checkedEverySeconds: null, failing: null }))
      .toBe('Next: this service.');
    expect(requestTitle(null)).toBe('Request · Changeflow');
    expect(requestTitle({ status: null })).toBe('Replaced by a newer request · Request · Changeflow');
    expect(requestTitle({ status: 'VALIDATED', kind: 'EXPIRY' })).toBe('In effect · Expiry of access · Changeflow');
    let wanted = false;
    const hidden = awake({ isHidden: () => true, subscribe: () => () => undefined }, () => wanted);
    expect(hidden.isHidden()).toBe(true);
    wanted = true;
    expect(hidden.isHidden()).toBe(false);
  });
});
