import { getExpiringGrants } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { expiresIn, formatDateTime } from '../logic/format';
import { useRefreshing } from '../logic/hooks';
import { Link } from '../router/router';
import { consolePaths } from './paths';

/** The window the panel counts: the next 24 hours. */
export const EXPIRING_WITHIN = 'PT24H';
/** How many of the soonest grants it lists. */
export const EXPIRING_LISTED = 20;
/** How often it looks again while the page is visible. */
export const EXPIRING_REFRESH_MS = 60_000;

/** "1 grant expires", "3 grants expire". */
export function expiringHeadline(count: number): string {
  return count === 1 ? '1 grant expires in the next 24 hours' : `${count} grants expire in the next 24 hours`;
}

/**
 * How many grants in effect expire in the next 24 hours (counted by the server, GET /ops/grants/expiring), and the
 * soonest of them, each linked to its request. Self-contained: loads on open and every minute while visible.
 */
export function ExpiringGrantsPanel() {
  const loaded = useRefreshing(
    ['grants-expiring', EXPIRING_WITHIN, EXPIRING_LISTED],
    (signal) => getExpiringGrants(EXPIRING_WITHIN, EXPIRING_LISTED, signal),
    EXPIRING_REFRESH_MS,
  );
  // The last count stays on screen while reloading; an error shows only when there is nothing to show.
  const state = loaded.data
    ? { status: 'ok' as const, data: loaded.data }
    : loaded.error
      ? { status: 'error' as const, error: loaded.error }
      : { status: 'loading' as const };

  return (
    <section aria-labelledby="expiring-title" className="subsection" data-testid="ops-expiring">
      <h2 id="expiring-title">Expiring soon</h2>
      {state.status === 'loading' ? <p className="muted">Counting…</p> : null}
      {state.status === 'error' ? (
        <p className="muted" data-testid="ops-expiring-error" data-code={state.error.code}>
          Could not count the grants expiring soon ({state.error.code}).
        </p>
      ) : null}
      {state.status === 'ok' ? (
        <p data-testid="ops-expiring-count" data-count={state.data.count}>
          <strong>{expiringHeadline(state.data.count)}</strong>
          {state.data.count > 0 ? ' (the expiry job removes each line through a removal merge request).' : '.'}
        </p>
      ) : null}
      {state.status === 'ok' && state.data.grants.length > 0 ? (
        <DataTable
          columns={['Subject', 'Target', 'Expires', 'Grant']}
          testId="ops-expiring-table"
          after={
            state.data.hasMore ? (
              <p className="muted" data-testid="ops-expiring-more">
                Showing the {state.data.grants.length} soonest of {state.data.count}.
              </p>
            ) : null
          }
        >
          {state.data.grants.map((g) => (
            <tr key={`${g.subjectId}/${g.targetKey}`} data-testid="ops-expiring-row">
              <td>{g.subjectId}</td>
              <td>
                <code>{g.targetKey}</code>
              </td>
              <td>
                {formatDateTime(g.expiresAt)}
                {g.expiresAt && expiresIn(g.expiresAt) ? <> ({expiresIn(g.expiresAt)})</> : null}
              </td>
              <td>
                {g.operationId ? (
                  <Link to={consolePaths.operation(g.operationId)}>
                    <code>{g.operationId.slice(0, 8)}</code>
                  </Link>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}
