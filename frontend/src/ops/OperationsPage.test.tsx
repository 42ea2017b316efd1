import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { envelope, type RecordedCall, type Reply } from '../test/fetchMock';
import { view } from '../test/fixtures';
import { flush, goBack, type as choose, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { OperationsPage } from './OperationsPage';

const session = testSession({ after: () => window.history.replaceState(null, '', '/') });
const { render } = session;
let r: Rendered | null = null;

/** The page's own search; the overdue panel on it asks /ops/overdue, answered with nothing overdue. */
function backend(handler: (call: RecordedCall) => Reply) {
  return session.backend((c) =>
    c.url.startsWith('/ops/overdue')
      ? envelope('OK', { examined: 0, overdue: [] })
      : c.url === '/api/targets'
        ? envelope('OK', [{ key: 'wiki-editors', name: 'Wiki editors', description: '', batchable: true, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true }])
        : handler(c),
  );
}

const searches = (calls: RecordedCall[]) => calls.map((c) => c.url).filter((url) => url.startsWith('/ops/operations'));

describe('OperationsPage (stuck requests)', () => {
  it('runs the search its URL names on open (the overview links there) and fills the form with it', async () => {
    window.history.replaceState(null, '', '/console/stuck?status=APPROVAL_SENT&stuckFor=2520');
    const mock = backend(() => envelope('OK', [view({ operationId: 'aaaaaaaa-1', timeline: undefined })]));
    r = await render(<OperationsPage />);
    await flush();
    expect(searches(mock.calls)).toEqual(['/ops/operations?status=APPROVAL_SENT&stuckForSeconds=2520&limit=100']);
    expect(r.allByTestId('ops-result').map((row) => row.dataset.operationId)).toEqual(['aaaaaaaa-1']);
    expect(r.container.querySelector<HTMLSelectElement>('#ops-status')?.value).toBe('APPROVAL_SENT');
    expect(r.container.querySelector<HTMLInputElement>('#ops-stuck')?.value).toBe('2520');
  });

  it('waits for Find without a search in the URL, then writes the search into the URL', async () => {
    window.history.replaceState(null, '', '/console/stuck');
    const mock = backend(() => envelope('OK', []));
    r = await render(<OperationsPage />);
    await flush();
    expect(searches(mock.calls)).toHaveLength(0);
    await act(async () => {
      r?.byTestId<HTMLFormElement>('ops-search').requestSubmit();
    });
    await flush();
    expect(window.location.pathname + window.location.search).toBe('/console/stuck?stuckFor=600');
    expect(searches(mock.calls)).toEqual(['/ops/operations?stuckForSeconds=600&limit=100']);
  });

  it('filters by target: the URL names it, the server is asked for it, back restores the search before', async () => {
    window.history.replaceState(null, '', '/console/stuck?status=MERGING&stuckFor=60');
    const mock = backend(() => envelope('OK', []));
    r = await render(<OperationsPage />);
    await flush();
    await choose(r.byTestId<HTMLSelectElement>('ops-target'), 'wiki-editors');
    await act(async () => {
      r?.byTestId<HTMLFormElement>('ops-search').requestSubmit();
    });
    await flush();
    expect(window.location.search).toBe('?status=MERGING&target=wiki-editors&stuckFor=60');
    expect(searches(mock.calls)).toEqual([
      '/ops/operations?status=MERGING&stuckForSeconds=60&limit=100',
      '/ops/operations?status=MERGING&targetKey=wiki-editors&stuckForSeconds=60&limit=100',
    ]);

    await goBack();
    await flush();
    expect(window.location.search).toBe('?status=MERGING&stuckFor=60');
    expect(r.byTestId<HTMLSelectElement>('ops-target').value).toBe('');
  });
});
