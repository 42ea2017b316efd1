import { listMyBindings } from '../api/endpoints';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { formatDate, formatDateTime } from '../logic/format';
import { useLoad } from '../logic/hooks';
import { Link } from '../router/router';

/** My bindings: the subject-target relationships and their external state. */
export function BindingsPage() {
  const [state, reload] = useLoad((signal) => listMyBindings(signal), []);
  const rows = state.status === 'ok' && Array.isArray(state.data) ? state.data : [];
  return (
    <section className="panel" data-testid="bindings-page">
      <PageHeading>My bindings</PageHeading>
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load your bindings." onRetry={reload} /> : null}
      {state.status === 'ok' && rows.length === 0 ? <p className="muted">You have no bindings yet.</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table data-testid="bindings">
            <thead>
              <tr>
                <th scope="col">Subject</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">Last change</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={`${b.subjectId}/${b.targetKey}`} data-testid="binding">
                  <td>{b.subjectId}</td>
                  <td>
                    <code>{b.targetKey}</code>
                  </td>
                  <td>
                    <StatusBadge status={b.status} />
                  </td>
                  <td>{b.expiresAt ? formatDate(b.expiresAt) : 'Never'}</td>
                  <td>{formatDateTime(b.updatedAt)}</td>
                  <td>
                    {b.operationId ? (
                      <Link to={`/requests/${encodeURIComponent(b.operationId)}`}>Open</Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
