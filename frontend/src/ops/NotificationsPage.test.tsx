import { describe, expect, it } from 'vitest';
import type { QueuedNotification } from '../api/types';
import { envelope } from '../test/fetchMock';
import { click, flush, type } from '../test/render';
import { testSession } from '../test/session';
import { NotificationsPage } from './NotificationsPage';

const { backend, render } = testSession({ at: '/console/notifications' });

function queued(id: number, over: Partial<QueuedNotification> = {}): QueuedNotification {
  return {
    id,
    state: 'PENDING',
    channel: 'MAIL',
    recipientKind: 'PERSON',
    recipient: 'bob@corp.example',
    title: '[Changeflow] In effect',
    link: `https://cf.example/requests/r${id}`,
    attempts: 0,
    nextAttempt: '2026-12-07T10:00:00Z',
    lastError: null,
    sentAt: null,
    queuedAt: '2026-12-07T10:00:00Z',
    ...over,
  };
}

describe('NotificationsPage (issue 32)', () => {
  it('lists the outbox newest first with where each message stands, its link, attempts and last error', async () => {
    const mock = backend(() =>
      envelope('OK', {
        notifications: [
          queued(3, {
            state: 'RETRYING',
            channel: 'WEBHOOK',
            recipientKind: 'OPERATORS',
            recipient: 'operators',
            attempts: 2,
            nextAttempt: '2026-12-07T10:05:00Z',
            lastError: 'webhook operators not reached: https://hooks.slack.com/…',
          }),
          queued(2, { state: 'GAVE_UP', attempts: 60, lastError: '535 authentication failed' }),
          queued(1, { state: 'SENT', sentAt: '2026-12-07T10:00:01Z' }),
        ],
        nextBefore: null,
      }),
    );
    const r = await render(<NotificationsPage />);
    await flush();
    expect(mock.calls.map((c) => c.url)).toEqual(['/ops/notifications?limit=50']);
    const rows = r.allByTestId('ops-notification');
    expect(rows.map((row) => [row.dataset.id, row.dataset.state])).toEqual([
      ['3', 'RETRYING'],
      ['2', 'GAVE_UP'],
      ['1', 'SENT'],
    ]);
    expect(rows[0]!.textContent).toContain('Failed, retrying');
    expect(rows[0]!.textContent).toContain('WEBHOOK to operators webhook');
    expect(rows[0]!.querySelector('[data-testid="ops-notification-error"]')?.textContent).toBe(
      'webhook operators not reached: https://hooks.slack.com/…',
    );
    expect(rows[1]!.textContent).toContain('Given up');
    expect(rows[1]!.textContent).toContain('MAIL to a person (bob@corp.example)');
    expect(rows[2]!.querySelector('a')?.getAttribute('href')).toBe('https://cf.example/requests/r1');
    expect(r.queryByTestId('ops-notifications-older')).toBeNull();
  });

  it('filters by state on the server and pages below the last message shown', async () => {
    const mock = backend((c) =>
      c.url.includes('before=')
        ? envelope('OK', { notifications: [queued(1, { state: 'RETRYING', attempts: 1 })], nextBefore: null })
        : envelope('OK', {
            notifications: [queued(5, { state: 'RETRYING', attempts: 1 }), queued(4, { state: 'RETRYING', attempts: 3 })],
            nextBefore: 4,
          }),
    );
    const r = await render(<NotificationsPage />);
    await flush();
    await type(r.byTestId<HTMLSelectElement>('notification-filter-state'), 'RETRYING');
    await flush();
    expect(mock.calls.at(-1)!.url).toBe('/ops/notifications?limit=50&state=RETRYING');
    await click(r.byTestId('ops-notifications-older'));
    await flush();
    expect(mock.calls.at(-1)!.url).toBe('/ops/notifications?limit=50&state=RETRYING&before=4');
    expect(r.allByTestId('ops-notification').map((row) => row.dataset.id)).toEqual(['1']);
    expect(r.queryByTestId('ops-notifications-older')).toBeNull();
    await click(r.byTestId('ops-notifications-newest'));
    await flush();
    expect(r.allByTestId('ops-notification').map((row) => row.dataset.id)).toEqual(['5', '4']);
  });

  it('says so when no message is in the state asked for', async () => {
    backend(() => envelope('OK', { notifications: [], nextBefore: null }));
    const r = await render(<NotificationsPage />);
    await flush();
    expect(r.byTestId('ops-notifications-none').textContent).toBe('No notification queued yet.');
  });
});
