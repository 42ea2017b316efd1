import { listMyRequests } from '../api/endpoints';
import { AskedBy } from '../components/AskedBy';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { HintText } from '../components/HintText';
import { ListFilters } from '../components/ListFilters';
import { MyDriftNotice } from '../components/MyDriftNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { formatDateTime } from '../logic/format';
import { LIST_REFRESH_MS, useRefreshing } from '../logic/hooks';
import { useListQuery } from '../logic/listQuery';
import { Link } from '../router/router';

export const RECORDS_PAGE_SIZE = 20;

/**
 * My records: my requests and those someone asked for me ("Asked for you by ..."), newest first, paged, filtered by status and target. Page and filters live in the URL
 * (`?page=2&status=VALIDATED&target=wiki-editors`), so back, reload and a shared link show the same list; it
 * refreshes itself while the page is visible.
 */
export function RecordsPage() {
  const [query, change] = useListQuery();
  const { page, status, target } = query;
  const state = useRefreshing(
    ['records', page, status, target],
    (signal) => listMyRequests({ page, size: RECORDS_PAGE_SIZE, status, targetKey: target }, signal),
    LIST_REFRESH_MS,
  );
  const items = Array.isArray(state.data?.items) ? state.data.items : [];
  const hasMore = state.data?.hasMore === true;
  const filtered = status !== null || target !== null;

  return (
    <section className="panel" data-testid="records-page">
      <PageHeading>My records</PageHeading>
      <MyDriftNotice />
      <ListFilters query={query} onChange={change} idPrefix="records" />
      {state.loading ? <Loading /> : null}
      {state.error ? <ErrorNotice error={state.error} title="Could not load your records." onRetry={state.reload} /> : null}
      {state.data && items.length === 0 ? (
        <p className="muted" data-testid="records-empty">
          {page > 0 ? 'No more records.' : filtered ? 'None of your requests match these filters.' : 'You have not submitted any request yet.'}
        </p>
      ) : null}
      {items.length > 0 ? (
        <DataTable
          columns={['Submitted', 'Target', 'Subject', 'Status', 'Next step']}
          testId="records"
          caption="My requests, newest first"
        >
          {items.map((r) => (
            <tr key={r.operationId} data-testid="record" data-operation-id={r.operationId}>
              <td>
                <Link to={`/requests/${encodeURIComponent(r.operationId)}`}>{formatDateTime(r.createdAt)}</Link>
              </td>
              <td>
                <code>{r.targetKey}</code>
              </td>
              <td>
                {r.subjectId} <AskedBy view={r} />
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td>
                <HintText hint={r.hint} />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <nav className="pager" aria-label="Pages of records">
        <button
          type="button"
          className="button-secondary"
          disabled={page === 0}
          onClick={() => change({ page: Math.max(0, page - 1) })}
          data-testid="records-newer"
        >
          Newer
        </button>
        <span className="muted" aria-live="polite" data-testid="records-page-number">
          Page {page + 1}
        </span>
        <button
          type="button"
          className="button-secondary"
          disabled={!hasMore}
          onClick={() => change({ page: page + 1 })}
          data-testid="records-older"
        >
          Older
        </button>
      </nav>
    </section>
  );
}
