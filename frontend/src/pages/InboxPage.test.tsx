import { describe, expect, it } from 'vitest';
import type { InboxItem } from '../api/types';
import { expectErrorNotice, tryAgainButton } from '../test/errorNotice';
import { envelope, type Reply } from '../test/fetchMock';
import { click, flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import InboxPage from './InboxPage';

const { backend, render } = testSession({ at: '/inbox' });
let r: Rendered | null = null;

function item(ticket: string, overrides: Partial<InboxItem> = {}): InboxItem {
  return {
    ticket,
    operationId: `op-${ticket}`,
    requester: 'alice',
    subject: 'svc-report',
    target: 'db-prod-readonly',
    reason: 'Quarterly report',
    createdAt: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

const INBOX = '/sim/approval/inbox';

function itemOf(rendered: Rendered, ticket: string): HTMLElement | null {
  return rendered.container.querySelector<HTMLElement>(`[data-testid="inbox-item"][data-ticket="${ticket}"]`);
}

function button(card: HTMLElement | null, testId: 'approve' | 'reject'): HTMLButtonElement {
  const found = card?.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`);
  if (!found) throw new Error(`no ${testId} button in ${card?.outerHTML ?? 'a missing card'}`);
  return found;
}

describe('InboxPage', () => {
  it('lists each pending approval with what the approver decides on', async () => {
    backend(() => envelope('OK', [item('t-1'), item('t-2', { requester: 'bob', subject: 'bob', target: 'vpn-staging', reason: 'Staging tests' })]));
    r = await render(<InboxPage />);
    await flush();
    const cards = r.allByTestId('inbox-item');
    expect(cards.map((c) => [c.dataset.ticket, c.dataset.operationId])).toEqual([
      ['t-1', 'op-t-1'],
      ['t-2', 'op-t-2'],
    ]);
    expect(cards[1]!.textContent).toContain('vpn-staging');
    expect(cards[1]!.textContent).toContain('Staging tests');
    expect(cards[1]!.textContent).toContain('bob');
    expect(r.queryByTestId('loading')).toBeNull();
  });

  it('approve sends APPROVE for that ticket, says so, and removes it from the list', async () => {
    let decided = false;
    const api = backend((c) => {
      if (c.method === 'POST') {
        decided = true;
        return envelope('DECIDED', item('t-1'), 200, { message: 'Decision recorded; the callback is on its way' });
      }
      return envelope('OK', decided ? [item('t-2')] : [item('t-1'), item('t-2')]);
    });
    r = await render(<InboxPage />);
    await flush();
    await click(button(itemOf(r, 't-1'), 'approve'));
    await flush();

    const posts = api.calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.url).toBe(`${INBOX}/t-1/decision`);
    expect(posts[0]!.body).toEqual({ decision: 'APPROVE' });
    const status = r.byTestId('inbox-status');
    expect(status.textContent).toContain('Approved ticket t-1.');
    expect(status.textContent).toContain('Decision recorded; the callback is on its way');
    expect(status.textContent).toContain('(DECIDED)');
    expect(itemOf(r, 't-1')).toBeNull();
    expect(itemOf(r, 't-2')).not.toBeNull();
    expect(api.calls.filter((c) => c.method === 'GET' && c.url === INBOX)).toHaveLength(2);
    expect(r.queryByTestId('error')).toBeNull();
  });

  it('reject sends REJECT for that ticket only and says "Rejected"', async () => {
    const api = backend((c) =>
      c.method === 'POST' ? envelope('DECIDED', item('t-2'), 200, { message: 'Decision recorded; the callback is on its way' }) : envelope('OK', [item('t-1'), item('t-2')]),
    );
    r = await render(<InboxPage />);
    await flush();
    await click(button(itemOf(r, 't-2'), 'reject'));
    await flush();

    const posts = api.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => [c.url, c.body])).toEqual([[`${INBOX}/t-2/decision`, { decision: 'REJECT' }]]);
    expect(r.byTestId('inbox-status').textContent).toContain('Rejected ticket t-2.');
    expect(r.byTestId('inbox-status').textContent).not.toContain('Approved');
    // Decided locally even while the simulator still lists it; the other one stays.
    expect(itemOf(r, 't-2')).toBeNull();
    expect(itemOf(r, 't-1')).not.toBeNull();
  });

  it('disables every decision button while a decision is on its way', async () => {
    let answer: (reply: Reply) => void = () => undefined;
    backend((c) =>
      c.method === 'POST' ? new Promise<Reply>((resolve) => (answer = resolve)) : envelope('OK', [item('t-1'), item('t-2')]),
    );
    r = await render(<InboxPage />);
    await flush();
    await click(button(itemOf(r, 't-1'), 'approve'));
    await flush();
    const buttons = r.container.querySelectorAll<HTMLButtonElement>('[data-testid="approve"], [data-testid="reject"]');
    expect(buttons).toHaveLength(4);
    expect(Array.from(buttons).every((b) => b.disabled)).toBe(true);

    answer(envelope('DECIDED', item('t-1')));
    await flush();
    expect(button(itemOf(r, 't-2'), 'approve').disabled).toBe(false);
  });

  it('409 ALREADY_DECIDED explains that it was decided already, with code and traceId, and nothing is reported as done', async () => {
    backend((c) =>
      c.method === 'POST'
        ? envelope('ALREADY_DECIDED', item('t-1'), 409, { message: 'This approval was already decided', traceId: 'tr-409' })
        : envelope('OK', [item('t-1')]),
    );
    r = await render(<InboxPage />);
    await flush();
    await click(button(itemOf(r, 't-1'), 'reject'));
    await flush();

    expectErrorNotice(r, { code: 'ALREADY_DECIDED', title: 'The decision was not sent.', message: 'This approval was already decided', traceId: 'tr-409' });
    expect(r.byTestId('error-code').textContent).toBe('ALREADY_DECIDED');
    expect(r.byTestId('inbox-status').textContent).toBe('');
    expect(button(itemOf(r, 't-1'), 'approve').disabled).toBe(false);
  });

  it('says when nothing waits', async () => {
    backend(() => envelope('OK', []));
    r = await render(<InboxPage />);
    await flush();
    expect(r.allByTestId('inbox-item')).toHaveLength(0);
    expect(r.container.textContent).toContain('No pending approvals.');
  });

  it('a refused inbox shows the error with code and traceId, and "Try again" loads it again', async () => {
    let refused = true;
    const api = backend(() => (refused ? envelope('ACCESS_DENIED', null, 403, { message: 'Access denied', traceId: 'tr-403' }) : envelope('OK', [item('t-1')])));
    r = await render(<InboxPage />);
    await flush();
    const error = expectErrorNotice(r, { code: 'ACCESS_DENIED', title: 'Could not load the inbox.', message: 'Access denied', traceId: 'tr-403' });
    expect(r.container.textContent).not.toContain('No pending approvals.');

    refused = false;
    const retry = tryAgainButton(error);
    expect(retry).toBeDefined();
    await click(retry!);
    await flush();
    expect(api.calls).toHaveLength(2);
    expect(r.queryByTestId('error')).toBeNull();
    expect(r.allByTestId('inbox-item')).toHaveLength(1);
  });
});
