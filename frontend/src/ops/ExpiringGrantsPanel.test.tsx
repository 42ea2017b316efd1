import { describe, expect, it } from 'vitest';
import type { Binding } from '../api/types';
import { envelope } from '../test/fetchMock';
import { flush } from '../test/render';
import { testSession } from '../test/session';
import { ExpiringGrantsPanel, expiringHeadline } from './ExpiringGrantsPanel';

const { backend, render, reset } = testSession();

function grant(subjectId: string, expiresAt: string, operationId: string): Binding {
  return { subjectId, targetKey: 'db-prod-readonly', status: 'VALIDATED', operationId, expiresAt, updatedAt: '2026-01-01T10:00:00Z' };
}

describe('ExpiringGrantsPanel (issue 18)', () => {
  it('asks the server for the next 24 hours and shows its count and the soonest grants, each linked to its request', async () => {
    const inTwoHours = new Date(Date.now() + 2 * 3600_000 + 60_000).toISOString();
    const overdue = new Date(Date.now() - 60_000).toISOString();
    const mock = backend((c) =>
      c.url.startsWith('/ops/grants/expiring')
        ? envelope('OK', {
            within: 'PT24H',
            count: 41,
            hasMore: true,
            grants: [grant('anna', overdue, 'aaaaaaaa-1111'), grant('bert', inTwoHours, 'bbbbbbbb-2222')],
          })
        : envelope('NOT_FOUND', null, 404),
    );
    const r = await render(<ExpiringGrantsPanel />);
    await flush();
    expect(mock.calls.map((c) => c.url)).toEqual(['/ops/grants/expiring?within=PT24H&limit=20']);
    const count = r.byTestId('ops-expiring-count');
    expect(count.dataset.count).toBe('41');
    expect(count.textContent).toContain('41 grants expire in the next 24 hours');
    const rows = r.allByTestId('ops-expiring-row');
    expect(rows.map((row) => row.querySelector('td')?.textContent)).toEqual(['anna', 'bert']);
    expect(rows[0]!.textContent).toContain('(expired)');
    expect(rows[1]!.textContent).toContain('(expires in 2 hours)');
    expect(rows[1]!.querySelector('a')?.getAttribute('href')).toBe('/console/operations/bbbbbbbb-2222');
    expect(r.byTestId('ops-expiring-more').textContent).toBe('Showing the 2 soonest of 41.');
  });

  it('says so when nothing expires, without a table, and shows an error it could not load', async () => {
    backend(() => envelope('OK', { within: 'PT24H', count: 0, hasMore: false, grants: [] }));
    const none = await render(<ExpiringGrantsPanel />);
    await flush();
    expect(none.byTestId('ops-expiring-count').textContent).toBe('0 grants expire in the next 24 hours.');
    expect(none.queryByTestId('ops-expiring-table')).toBeNull();
    expect(none.queryByTestId('ops-expiring-more')).toBeNull();
    await reset();

    backend(() => envelope('INVALID_REQUEST', null, 400));
    const refused = await render(<ExpiringGrantsPanel />);
    await flush();
    expect(refused.byTestId('ops-expiring-error').dataset.code).toBe('INVALID_REQUEST');
    expect(refused.queryByTestId('ops-expiring-count')).toBeNull();
  });

  it('says one grant in the singular', () => {
    expect(expiringHeadline(1)).toBe('1 grant expires in the next 24 hours');
    expect(expiringHeadline(2)).toBe('2 grants expire in the next 24 hours');
  });
});
