import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LIST_REFRESH_MS } from '../logic/hooks';
import type { RequestView } from '../api/types';
import { expectErrorNotice, tryAgain } from '../test/errorNotice';
import { envelope, type RecordedCall, type Reply } from '../test/fetchMock';
import { view } from '../test/fixtures';
import { click, flush, goBack, type as choose, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { SessionProvider } from '../session/session';
import { RecordsPage } from './RecordsPage';

const session = testSession({ at: '/records' });
const { render } = session;
let r: Rendered | null = null;

const TARGETS = [
  { key: 'db-prod-readonly', name: 'Production database (read-only)', description: '', batchable: false, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true },
  { key: 'wiki-editors', name: 'Wiki editors', description: '', batchable: true, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true },
];

/** The records endpoint answers `handler`; the catalog (the target filter's choices) answers TARGETS. */
function backend(handler: (call: RecordedCall) => Reply) {
  const mock = session.backend((call) => (call.url === '/api/targets' ? envelope('OK', TARGETS) : handler(call)));
  return { ...mock, get records() { return mock.calls.filter((c) => c.url.startsWith('/api/requests')); } };
}

function page(items: RequestView[], pageNumber = 0, hasMore = false) {
  return { items, page: pageNumber, size: 20, hasMore };
}

function cells(row: HTMLElement): string[] {
  return Array.from(row.querySelectorAll('td')).map((td) => td.textContent ?? '');
}

function pagerButton(rendered: Rendered, name: 'Newer' | 'Older'): HTMLButtonElement {
  const found = Array.from(rendered.container.querySelectorAll<HTMLButtonElement>('nav.pager button')).find((b) => b.textContent === name);
  if (!found) throw new Error(`no "${name}" button`);
  return found;
}

/** A request as the records list shows it (the list carries no timeline). */
function listed(operationId: string, targetKey: string, subjectId: string, status: RequestView['status'], hint: RequestView['hint']) {
  return view({ operationId, targetKey, subjectId, status, hint, timeline: undefined });
}

const VALIDATED = listed('aaaaaaaa-1111-4111-8111-111111111111', 'db-prod-readonly', 'alice', 'VALIDATED', {
  code: 'NONE',
  message: 'Done.',
});
const REJECTED = listed('bbbbbbbb-2222-4222-8222-222222222222', 'vpn-staging', 'svc-ci', 'REJECTED', {
  code: 'CAN_REAPPLY',
  message: 'You can apply again.',
});
const REPLACED = listed('cccccccc-3333-4333-8333-333333333333', 'dashboards-viewer', 'alice', null, {
  code: 'CAN_REAPPLY',
  message: 'A newer request replaced this one.',
});

describe('RecordsPage', () => {
  it('tells the signed-in subject who asked for a request for them, and nothing extra on their own requests', async () => {
    const own = listed('dddddddd-4444-4444-8444-444444444444', 'vpn-staging', 'bob', 'APPROVAL_SENT', { code: 'NONE', message: 'Waiting.' });
    const forBob = { ...listed('eeeeeeee-5555-4555-8555-555555555555', 'db-prod-readonly', 'bob', 'APPROVAL_SENT', { code: 'NONE', message: 'Waiting.' }), requester: 'alice' };
    const byBob = { ...listed('ffffffff-6666-4666-8666-666666666666', 'db-prod-readonly', 'svc-ci', 'APPROVAL_SENT', { code: 'NONE', message: 'Waiting.' }), requester: 'bob' };
    backend((call) =>
      call.url === '/api/me'
        ? envelope('OK', { account: 'bob', verified: true, permissions: [], sandbox: false, submissionsOpen: true })
        : envelope('OK', page([{ ...own, requester: 'bob' }, forBob, byBob])),
    );
    r = await render(
      <SessionProvider>
        <RecordsPage />
      </SessionProvider>,
    );
    await flush();
    await flush();

    const rows = r.allByTestId('record');
    expect(rows.map((row) => cells(row)[2])).toEqual(['bob ', 'bob Asked for you by alice', 'svc-ci ']);
  });

  it('asks for the first page of 20 and shows one row per request the server returns, in its order', async () => {
    const api = backend(() => envelope('OK', page([VALIDATED, REJECTED, REPLACED])));
    r = await render(<RecordsPage />);
    await flush();
    expect(api.records.map((c) => c.url)).toEqual(['/api/requests?page=0&size=20']);

    const rows = r.allByTestId('record');
    expect(rows.map((row) => row.dataset.operationId)).toEqual([VALIDATED.operationId, REJECTED.operationId, REPLACED.operationId]);
    expect(rows.map((row) => row.querySelector('a')?.getAttribute('href'))).toEqual([
      `/requests/${VALIDATED.operationId}`,
      `/requests/${REJECTED.operationId}`,
      `/requests/${REPLACED.operationId}`,
    ]);
    expect(rows.map((row) => row.querySelector('[data-status]')?.getAttribute('data-status'))).toEqual(['VALIDATED', 'REJECTED', 'REPLACED']);
    expect(rows.map((row) => row.querySelector('[data-hint]')?.getAttribute('data-hint'))).toEqual(['NONE', 'CAN_REAPPLY', 'CAN_REAPPLY']);

    const rejected = cells(rows[1]!);
    expect(rejected[1]).toBe('vpn-staging');
    expect(rejected[2]).toBe('svc-ci Asked by alice');
    expect(rejected[4]).toBe('You can apply again');
    expect(cells(rows[2]!)[3]).toBe('Replaced by a newer request');
    expect(r.container.textContent).not.toContain('You have not submitted any request yet.');
    expect(r.queryByTestId('loading')).toBeNull();
  });

  it('pages: "Older" asks for the next page while the server says there is more, "Newer" goes back', async () => {
    const api = backend((c) =>
      c.url.includes('page=1') ? envelope('OK', page([REPLACED], 1, false)) : envelope('OK', page([VALIDATED, REJECTED], 0, true)),
    );
    r = await render(<RecordsPage />);
    await flush();
    expect(pagerButton(r, 'Newer').disabled).toBe(true);
    expect(pagerButton(r, 'Older').disabled).toBe(false);

    await click(pagerButton(r, 'Older'));
    await flush();
    expect(api.records.map((c) => c.url)).toEqual(['/api/requests?page=0&size=20', '/api/requests?page=1&size=20']);
    expect(window.location.search).toBe('?page=2');
    expect(r.allByTestId('record').map((row) => row.dataset.operationId)).toEqual([REPLACED.operationId]);
    expect(r.container.querySelector('nav.pager')?.textContent).toContain('Page 2');
    expect(pagerButton(r, 'Older').disabled).toBe(true);
    expect(pagerButton(r, 'Newer').disabled).toBe(false);

    await click(pagerButton(r, 'Newer'));
    await flush();
    expect(api.records.at(-1)?.url).toBe('/api/requests?page=0&size=20');
    expect(window.location.search).toBe('');
    expect(r.allByTestId('record')).toHaveLength(2);
  });

  it('says so when there are no records, without a table', async () => {
    backend(() => envelope('OK', page([])));
    r = await render(<RecordsPage />);
    await flush();
    expect(r.queryByTestId('records')).toBeNull();
    expect(r.container.textContent).toContain('You have not submitted any request yet.');
    expect(pagerButton(r, 'Older').disabled).toBe(true);
  });

  it('a failed load shows the message, code and traceId, no empty-state text, and "Try again" loads again', async () => {
    let failing = true;
    const api = backend(() =>
      failing ? envelope('INTERNAL_ERROR', null, 500, { message: 'Something went wrong on our side.', traceId: 'tr-500' }) : envelope('OK', page([VALIDATED])),
    );
    r = await render(<RecordsPage />);
    await flush();
    const error = expectErrorNotice(r, {
      code: 'INTERNAL_ERROR',
      title: 'Could not load your records.',
      message: 'Something went wrong on our side.',
      traceId: 'tr-500',
    });
    expect(r.container.textContent).not.toContain('You have not submitted any request yet.');
    expect(r.queryByTestId('records')).toBeNull();

    failing = false;
    await tryAgain(error);
    expect(api.records).toHaveLength(2);
    expect(r.queryByTestId('error')).toBeNull();
    expect(r.allByTestId('record').map((row) => row.dataset.operationId)).toEqual([VALIDATED.operationId]);
  });

  it('a server that cannot be reached is said so', async () => {
    backend(() => 'network-error');
    r = await render(<RecordsPage />);
    await flush();
    expect(r.byTestId('error').dataset.code).toBe('NETWORK_ERROR');
    expect(r.byTestId('error-message').textContent).toMatch(/cannot reach the server/i);
  });

  it('reads page and filters from the URL, asks the server for them, and shows them in the filters', async () => {
    window.history.replaceState(null, '', '/records?page=3&status=validated&target=wiki-editors');
    const api = backend(() => envelope('OK', page([VALIDATED], 2)));
    r = await render(<RecordsPage />);
    await flush();
    expect(api.records.map((c) => c.url)).toEqual(['/api/requests?page=2&size=20&status=VALIDATED&targetKey=wiki-editors']);
    expect(r.byTestId<HTMLSelectElement>('records-status').value).toBe('VALIDATED');
    expect(r.byTestId<HTMLSelectElement>('records-target').value).toBe('wiki-editors');
    expect(r.byTestId('records-page-number').textContent).toBe('Page 3');
  });

  it('a filter changed writes the URL as a new history entry, back on the first page; back restores the list', async () => {
    window.history.replaceState(null, '', '/records?page=2');
    const api = backend((c) => envelope('OK', page(c.url.includes('status=REJECTED') ? [REJECTED] : [VALIDATED, REPLACED], 1)));
    r = await render(<RecordsPage />);
    await flush();
    const entries = window.history.length;

    await choose(r.byTestId<HTMLSelectElement>('records-status'), 'REJECTED');
    await flush();
    expect(window.location.search).toBe('?status=REJECTED');
    expect(window.history.length).toBe(entries + 1);
    expect(api.records.at(-1)?.url).toBe('/api/requests?page=0&size=20&status=REJECTED');
    expect(r.allByTestId('record').map((row) => row.dataset.operationId)).toEqual([REJECTED.operationId]);

    await choose(r.byTestId<HTMLSelectElement>('records-target'), 'db-prod-readonly');
    await flush();
    expect(window.location.search).toBe('?status=REJECTED&target=db-prod-readonly');

    await goBack();
    await goBack();
    await flush();
    expect(window.location.search).toBe('?page=2');
    expect(r.byTestId<HTMLSelectElement>('records-status').value).toBe('');
    expect(r.byTestId('records-page-number').textContent).toBe('Page 2');
    expect(r.allByTestId('record').map((row) => row.dataset.operationId)).toEqual([VALIDATED.operationId, REPLACED.operationId]);
  });

  it('a URL value that cannot be a filter reads as none, never a failed list', async () => {
    window.history.replaceState(null, '', '/records?page=x&status=SOMETHING&target=Not%20a%20key');
    const api = backend(() => envelope('OK', page([VALIDATED])));
    r = await render(<RecordsPage />);
    await flush();
    expect(api.records.map((c) => c.url)).toEqual(['/api/requests?page=0&size=20']);
    expect(r.byTestId<HTMLSelectElement>('records-status').value).toBe('');
  });

  it('says when no request matches the filters', async () => {
    window.history.replaceState(null, '', '/records?status=EXPIRED');
    backend(() => envelope('OK', page([])));
    r = await render(<RecordsPage />);
    await flush();
    expect(r.byTestId('records-empty').textContent).toBe('None of your requests match these filters.');
  });

  it('refreshes itself while the page is visible, not while it is hidden, and at once when it shows again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    let hidden = false;
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => (hidden ? 'hidden' : 'visible'));
    try {
      let status = 'APPROVAL_SENT';
      const api = backend(() => envelope('OK', page([{ ...VALIDATED, status }])));
      r = await render(<RecordsPage />);
      await flush();
      expect(api.records).toHaveLength(1);

      status = 'VALIDATED';
      await act(async () => {
        await vi.advanceTimersByTimeAsync(LIST_REFRESH_MS);
      });
      await flush();
      expect(api.records).toHaveLength(2);
      expect(r.allByTestId('record')[0]!.querySelector('[data-status]')?.getAttribute('data-status')).toBe('VALIDATED');

      hidden = true;
      await act(async () => {
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
        await vi.advanceTimersByTimeAsync(LIST_REFRESH_MS * 3);
      });
      expect(api.records).toHaveLength(2);

      hidden = false;
      await act(async () => {
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      });
      await flush();
      expect(api.records).toHaveLength(3);
    } finally {
      visibility.mockRestore();
      vi.useRealTimers();
    }
  });
});
