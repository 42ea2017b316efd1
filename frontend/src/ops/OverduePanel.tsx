import { findOverdue } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { StatusBadge } from '../components/StatusBadge';
import { formatDateTime } from '../logic/format';
import { useRefreshing } from '../logic/hooks';
import { ownerLabel } from '../logic/wait';
import { Link } from '../router/router';
import { consolePaths } from './paths';

/** How often the panel looks again while the page is visible. */
export const OVERDUE_REFRESH_MS = 30_000;

/** "4 min", "2 h 5 min", "45 s". */
export function overdueFor(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/**
 * The requests past their deadline, longest overdue first: what an operator looks at before anything else.
 * Loads on open and again every 30 s while the page is visible (and when it shows again).
 */
export function OverduePanel() {
  const { data, error, loadedAt } = useRefreshing(['overdue'], findOverdue, OVERDUE_REFRESH_MS);
  const list = data ?? { examined: 0, overdue: [] };
  const state = error ? { status: 'error' as const, error } : loadedAt ? { status: 'ok' as const, list } : { status: 'loading' as const };

  return (
    <section aria-labelledby="overdue-title" className="subsection" data-testid="ops-overdue">
      <h2 id="overdue-title">Past their deadline</h2>
      {state.status === 'loading' ? <p className="muted">Looking…</p> : null}
      {state.status === 'error' ? (
        <p className="muted" data-testid="ops-overdue-error" data-code={state.error.code}>
          Could not look for overdue requests ({state.error.code}).
        </p>
      ) : null}
      {state.status === 'ok' && state.list.overdue.length === 0 ? (
        <p className="muted" data-testid="ops-overdue-none">
          No request is past its deadline ({state.list.examined} waiting looked at).
        </p>
      ) : null}
      {state.status === 'ok' && state.list.overdue.length > 0 ? (
        <DataTable columns={['Request', 'Status', 'Waiting on', 'Overdue by', 'At the deadline']} testId="ops-overdue-table">
          {state.list.overdue.map((o) => (
            <tr key={o.operationId} data-testid="ops-overdue-row" data-operation-id={o.operationId}>
              <td>
                <Link to={consolePaths.operation(o.operationId)}>
                  <code>{o.operationId.slice(0, 8)}</code>
                </Link>{' '}
                <code>{o.targetKey}</code> / {o.subjectId}
              </td>
              <td>
                <StatusBadge status={o.status} />
              </td>
              <td>{ownerLabel(o.owner)}</td>
              <td title={`due ${formatDateTime(o.dueAt)} (${o.deadlineKey})`}>{overdueFor(o.overdueSeconds)}</td>
              <td>{o.atDeadline}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
