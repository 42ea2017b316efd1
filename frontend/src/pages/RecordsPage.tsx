import { useState } from 'react';
import { listMyRequests } from '../api/endpoints';
import { ErrorNotice } from '../components/ErrorNotice';
import { HintText } from '../components/HintText';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { formatDateTime } from '../logic/format';
import { useLoad } from '../logic/hooks';
import { Link } from '../router/router';

export const RECORDS_PAGE_SIZE = 20;

/** My records: my requests, newest first, paged. */
export function RecordsPage() {
  const [page, setPage] = useState(0);
  const [state, reload] = useLoad((signal) => listMyRequests(page, RECORDS_PAGE_SIZE, signal), [page]);
  const items = state.status === 'ok' && Array.isArray(state.data?.items) ? state.data.items : [];
  const hasMore = state.status === 'ok' && state.data?.hasMore === true;

  return (
    <section className="panel" data-testid="records-page">
      <PageHeading>My records</PageHeading>
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load your records." onRetry={reload} /> : null}
      {state.status === 'ok' && items.length === 0 ? (
        <p className="muted">{page === 0 ? 'You have not submitted any request yet.' : 'No more records.'}</p>
      ) : null}
      {items.length > 0 ? (
        <div className="table-wrap">
          <table data-testid="records">
            <caption className="visually-hidden">My requests, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Submitted</th>
                <th scope="col">Target</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
                <th scope="col">Next step</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.operationId} data-testid="record" data-operation-id={r.operationId}>
                  <td>
                    <Link to={`/requests/${encodeURIComponent(r.operationId)}`}>{formatDateTime(r.createdAt)}</Link>
                  </td>
                  <td>
                    <code>{r.targetKey}</code>
                  </td>
                  <td>{r.subjectId}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    <HintText hint={r.hint} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav className="pager" aria-label="Pages of records">
        <button type="button" className="button-secondary" disabled={page === 0} onClick={() => setPage((p) => Math.max(0, p - 1))}>
          Newer
        </button>
        <span className="muted" aria-live="polite">
          Page {page + 1}
        </span>
        <button type="button" className="button-secondary" disabled={!hasMore} onClick={() => setPage((p) => p + 1)}>
          Older
        </button>
      </nav>
    </section>
  );
}
