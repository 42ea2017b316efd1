import { describe, expect, it } from 'vitest';
import type { DriftItem } from '../api/types';
import { MyDriftNotice } from '../components/MyDriftNotice';
import { envelope } from '../test/fetchMock';
import { click, flush, type } from '../test/render';
import { testSession } from '../test/session';
import { DriftPanel, driftHeadline, evidenceText } from './DriftPanel';

const { backend, render, reset } = testSession();

function item(id: number, over: Partial<DriftItem> = {}): DriftItem {
  return {
    id,
    targetKey: 'db-prod-readonly',
    kind: 'UNAPPROVED_LINE',
    subjectId: 'mona',
    line: 'mona until=never op=0c0c0000-0000-4000-8000-000000000001',
    operationId: null,
    note: 'Its operation is unknown to the service.',
    evidence: { commitSha: '5ca1ab1e00000000', author: 'mallory', committedAt: '2026-03-01T08:00:00Z' },
    commitSeen: '5ca1ab1e00000000',
    firstSeen: '2026-03-01T08:01:00Z',
    lastSeen: '2026-03-01T09:00:00Z',
    status: 'OPEN',
    statusActor: 'system',
    statusNote: 'Found on main.',
    statusAt: '2026-03-01T08:01:00Z',
    removalOperationId: null,
    allowedActions: ['REMOVE', 'ADOPT', 'ACKNOWLEDGE'],
    ...over,
  };
}

describe('DriftPanel (issue 36)', () => {
  it('lists the items with their line and evidence and offers only the actions each allows', async () => {
    const mock = backend((c) =>
      c.url.startsWith('/ops/drift')
        ? envelope('OK', [
            item(1),
            item(2, { kind: 'MISSING_LINE', subjectId: 'nina', evidence: { commitSha: null, author: null, committedAt: null }, allowedActions: ['ACKNOWLEDGE'] }),
            item(3, { status: 'ACKNOWLEDGED', statusActor: 'otto', allowedActions: ['REMOVE', 'ADOPT'] }),
          ])
        : envelope('NOT_FOUND', null, 404),
    );
    const r = await render(<DriftPanel />);
    await flush();
    expect(mock.calls.map((c) => c.url)).toEqual(['/ops/drift?limit=50']);
    expect(r.byTestId('ops-drift-count').dataset.unhandled).toBe('2');
    expect(r.byTestId('ops-drift-count').textContent).toBe('2 drift items need a decision');
    const rows = r.allByTestId('ops-drift-row');
    expect(rows.map((row) => row.dataset.id)).toEqual(['1', '2', '3']);
    expect(rows[0]!.querySelector('[data-testid="ops-drift-line"]')?.textContent).toBe(item(1).line);
    expect(rows[0]!.querySelector('[data-testid="ops-drift-evidence"]')?.textContent).toContain('by mallory, in 5ca1ab1e');
    expect(rows[1]!.querySelector('[data-testid="ops-drift-evidence"]')?.textContent).toContain('GitLab did not say');
    expect(rows[1]!.querySelector('[data-testid="ops-drift-remove"]')).toBeNull();
    expect(rows[1]!.querySelector('[data-testid="ops-drift-adopt"]')).toBeNull();
    expect(rows[1]!.querySelector('[data-testid="ops-drift-acknowledge"]')).not.toBeNull();
    expect(rows[2]!.querySelector('[data-testid="ops-drift-acknowledge"]')).toBeNull();
    expect(rows[2]!.textContent).toContain('by otto');
  });

  it('acknowledges with the reason typed, only once one is typed, and loads the list again', async () => {
    const mock = backend((c) =>
      c.method === 'POST'
        ? envelope('ACKNOWLEDGED', { item: item(1, { status: 'ACKNOWLEDGED', allowedActions: ['REMOVE', 'ADOPT'] }), operationId: null }, 200, {
            message: 'Acknowledged: the line stays as it is.',
          })
        : envelope('OK', [item(1)]),
    );
    const r = await render(<DriftPanel />);
    await flush();
    const button = r.byTestId('ops-drift-acknowledge') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await type(r.byTestId('ops-drift-reason') as HTMLInputElement, 'agreed with the team lead');
    expect(button.disabled).toBe(false);
    await click(button);
    await flush();
    const post = mock.calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/ops/drift/1/acknowledge');
    expect(post.body).toEqual({ reason: 'agreed with the team lead' });
    const result = r.byTestId('ops-drift-result').querySelector('p')!;
    expect(result.dataset.code).toBe('ACKNOWLEDGED');
    expect(mock.calls.filter((c) => c.method === 'GET').length).toBeGreaterThanOrEqual(2);
  });

  it('adopts with the until typed and removes; an item handled meanwhile is information, not a failure', async () => {
    const mock = backend((c) => {
      if (c.url === '/ops/drift/1/adopt') {
        return envelope('ADOPTED', { item: item(1, { status: 'ADOPTED', allowedActions: [] }), operationId: 'aaaaaaaa-1111' });
      }
      if (c.url === '/ops/drift/1/remove') {
        return envelope('DRIFT_ALREADY_HANDLED', null, 409, { message: 'This drift item was already handled; nothing was changed.' });
      }
      return envelope('OK', [item(1)]);
    });
    const r = await render(<DriftPanel />);
    await flush();
    await type(r.byTestId('ops-drift-until') as HTMLInputElement, ' 2026-12-31 ');
    await click(r.byTestId('ops-drift-adopt'));
    await flush();
    expect(mock.calls.find((c) => c.url === '/ops/drift/1/adopt')?.body).toEqual({ until: '2026-12-31' });
    expect(r.byTestId('ops-drift-result').textContent).toContain('Request aaaaaaaa.');

    await click(r.byTestId('ops-drift-remove'));
    await flush();
    const answer = r.byTestId('ops-drift-result').querySelector('p')!;
    expect(answer.dataset.code).toBe('DRIFT_ALREADY_HANDLED');
    expect(answer.dataset.tone).toBe('info');
  });

  it('says when main and the records agree, and shows an error it could not load', async () => {
    backend(() => envelope('OK', []));
    const none = await render(<DriftPanel />);
    await flush();
    expect(none.byTestId('ops-drift-count').textContent).toBe('Every grant file on main agrees with the records.');
    expect(none.queryByTestId('ops-drift-table')).toBeNull();
    await reset();

    backend(() => envelope('ACCESS_DENIED', null, 403));
    const refused = await render(<DriftPanel />);
    await flush();
    expect(refused.byTestId('ops-drift-error').dataset.code).toBe('ACCESS_DENIED');
  });

  it('words the headline and the evidence', () => {
    expect(driftHeadline(1)).toBe('1 drift item needs a decision');
    expect(driftHeadline(0)).toBe('0 drift items need a decision');
    expect(evidenceText(item(1, { evidence: { commitSha: null, author: 'bob', committedAt: null } }))).toBe('by bob');
  });
});

describe('MyDriftNotice (issue 36)', () => {
  it('tells a person about drift of their own access and of someone they asked for', async () => {
    const mock = backend(() =>
      envelope('OK', [
        { item: item(7, { kind: 'MISSING_LINE', subjectId: 'tina' }), asSubject: true },
        { item: item(8, { subjectId: 'kim', status: 'REMOVING' }), asSubject: false },
      ]),
    );
    const r = await render(<MyDriftNotice />);
    await flush();
    expect(mock.calls.map((c) => c.url)).toEqual(['/api/drift']);
    const items = r.allByTestId('my-drift-item');
    expect(items[0]!.textContent).toContain('Your access to db-prod-readonly');
    expect(items[0]!.textContent).toContain('its line is missing from main');
    expect(items[1]!.textContent).toContain('The access of kim (you asked for it)');
    expect(items[1]!.textContent).toContain('(being removed)');
  });

  it('shows nothing when there is no drift or it could not be loaded', async () => {
    backend(() => envelope('OK', []));
    const none = await render(<MyDriftNotice />);
    await flush();
    expect(none.queryByTestId('my-drift')).toBeNull();
    await reset();
    backend(() => envelope('INTERNAL_ERROR', null, 500));
    const failed = await render(<MyDriftNotice />);
    await flush();
    expect(failed.queryByTestId('my-drift')).toBeNull();
  });
});
