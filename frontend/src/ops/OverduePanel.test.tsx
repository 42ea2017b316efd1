import { describe, expect, it } from 'vitest';
import { envelope } from '../test/fetchMock';
import { view } from '../test/fixtures';
import { flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { OverduePanel, overdueFor } from './OverduePanel';

const { backend, render, reset } = testSession();
let r: Rendered | null = null;

function overdue(operationId: string, overdueSeconds: number, owner: string) {
  return {
    ...view({ operationId, status: 'MERGED', timeline: undefined }),
    owner,
    nextMove: 'The deployment pipeline reports the change in effect.',
    deadline: 'DEPLOY',
    deadlineKey: 'changeflow.workflow.deploy-deadline',
    dueAt: '2026-01-01T10:00:00Z',
    overdueSeconds,
    atDeadline: 'the request is marked deploy unconfirmed',
  };
}

describe('OverduePanel', () => {
  it('lists the overdue requests in the order the server sends them, longest overdue first, with who was to act', async () => {
    const mock = backend((c) =>
      c.url.startsWith('/ops/overdue')
        ? envelope('OK', { examined: 12, overdue: [overdue('aaaaaaaa-1', 7500, 'DEPLOY_PIPELINE'), overdue('bbbbbbbb-2', 90, 'SERVICE')] })
        : envelope('NOT_FOUND', null, 404),
    );
    r = await render(<OverduePanel />);
    await flush();
    const rows = r.allByTestId('ops-overdue-row');
    expect(rows.map((row) => row.dataset.operationId)).toEqual(['aaaaaaaa-1', 'bbbbbbbb-2']);
    expect(rows[0]!.textContent).toContain('the deployment pipeline');
    expect(rows[0]!.textContent).toContain('2 h 5 min');
    expect(rows[1]!.textContent).toContain('this service');
    expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe('/console/operations/aaaaaaaa-1');
    expect(mock.calls.filter((c) => c.url.startsWith('/ops/overdue'))).toHaveLength(1);
  });

  it('says so when nothing is overdue, and shows an error it could not load', async () => {
    backend(() => envelope('OK', { examined: 3, overdue: [] }));
    r = await render(<OverduePanel />);
    await flush();
    expect(r.byTestId('ops-overdue-none').textContent).toContain('3 waiting');
    await reset();
    backend(() => envelope('ACCESS_DENIED', null, 403));
    r = await render(<OverduePanel />);
    await flush();
    expect(r.byTestId('ops-overdue-error').textContent).toContain('Could not look for overdue requests (ACCESS_DENIED).');
    expect(r.allByTestId('ops-overdue').flatMap((el) => Array.from(el.querySelectorAll('[data-testid="error"]')))).toHaveLength(0);
  });

  it('says how long in words a person reads', () => {
    expect(overdueFor(45)).toBe('45 s');
    expect(overdueFor(240)).toBe('4 min');
    expect(overdueFor(7200)).toBe('2 h');
    expect(overdueFor(-3)).toBe('0 s');
  });
});
