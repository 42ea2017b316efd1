import { listMyBindings, listMyRequests } from '../../api/endpoints';
import type { Binding, RequestView } from '../../api/types';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { StatusBadge } from '../../components/StatusBadge';
import { expiresIn, formatUntil } from '../../logic/format';
import { LIST_REFRESH_MS, useLoad, useRefreshing } from '../../logic/hooks';
import { TERMINAL_STATUSES } from '../../logic/polling';
import { ownerLabel } from '../../logic/wait';
import { Link, useNavigate } from '../../router/router';
import { renewable, renewalState } from '../renewal';
import { describeDuration } from '../../logic/durations';

/** A grant this close to its end offers "Renew" on the home page (My access offers it always). */
export const RENEW_NEAR_MS = 7 * 24 * 3_600_000;

/** How many of my newest requests the home page looks through for the open ones (My records has them all). */
export const OPEN_REQUESTS_LOOKED_AT = 50;

/** In effect: a grant, or a grant whose removal an approver did not approve (it stays until a person acts). */
function inEffect(b: Binding): boolean {
  return b.status === 'VALIDATED' || b.status === 'REMOVAL_REJECTED';
}

function near(b: Binding, now: Date): boolean {
  if (!b.expiresAt) return false;
  const at = new Date(b.expiresAt).getTime();
  return !Number.isNaN(at) && at - now.getTime() <= RENEW_NEAR_MS;
}

/** Open: still moving (not in effect, refused, closed, ended or replaced). */
function open(r: RequestView): boolean {
  return r.status !== null && !TERMINAL_STATUSES.has(r.status);
}

/** "Next: the approver" from the list view's wait, or what the hint says when nobody is expected to act. */
function nextOf(r: RequestView): string {
  return r.waiting ? `Next: ${ownerLabel(r.waiting.waitingFor)}` : r.hint.message;
}

/** My access: the grants in effect for me, each with its last day, and "Renew" when the end is near. */
export function MyAccess({ now = new Date() }: { now?: Date }) {
  const navigate = useNavigate();
  const [state, reload] = useLoad(['bindings'], (signal) => listMyBindings(signal));
  const rows = state.status === 'ok' && Array.isArray(state.data) ? state.data.filter(inEffect) : [];
  return (
    <section className="panel" aria-labelledby="my-access-title" data-testid="my-access">
      <h2 id="my-access-title">My access</h2>
      {state.status === 'loading' ? <Loading label="Loading your access…" /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load your access." onRetry={reload} /> : null}
      {state.status === 'ok' && rows.length === 0 ? (
        <p className="muted" data-testid="my-access-empty">
          You have no access through Changeflow yet: pick a target from the catalog below.
        </p>
      ) : null}
      <ul className="target-list">
        {rows.map((b) => {
          const left = b.status === 'VALIDATED' ? expiresIn(b.expiresAt, now) : '';
          return (
            <li key={`${b.subjectId}/${b.targetKey}`} className="target" data-testid="my-access-grant" data-target={b.targetKey}>
              <div>
                <p className="target-name">
                  <code>{b.targetKey}</code> <span className="muted">for {b.subjectId}</span>
                </p>
                <p className="muted" data-testid="my-access-until">
                  {formatUntil(b.expiresAt, now)}
                  {left ? ` (${left})` : ''}
                </p>
              </div>
              {renewable(b) && near(b, now) ? (
                <button
                  type="button"
                  className="button-secondary"
                  data-testid="home-renew"
                  aria-label={`Renew ${b.targetKey} for ${b.subjectId}`}
                  onClick={() => void navigate('/', { state: renewalState(b) })}
                >
                  Renew
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** My open requests, newest first, each with who acts next; refreshed while the page is visible. */
export function OpenRequests() {
  const state = useRefreshing(
    ['home-open-requests'],
    (signal) => listMyRequests({ page: 0, size: OPEN_REQUESTS_LOOKED_AT }, signal),
    LIST_REFRESH_MS,
  );
  const items = Array.isArray(state.data?.items) ? state.data.items.filter(open) : [];
  return (
    <section className="panel" aria-labelledby="open-requests-title" data-testid="open-requests">
      <h2 id="open-requests-title">Pending</h2>
      {state.loading ? <Loading label="Loading your requests…" /> : null}
      {state.error ? <ErrorNotice error={state.error} title="Could not load your requests." onRetry={state.reload} /> : null}
      {state.data && items.length === 0 ? (
        <p className="muted" data-testid="open-requests-empty">
          Nothing pending.
        </p>
      ) : null}
      <ul className="target-list">
        {items.map((r) => (
          <li key={r.operationId} className="target" data-testid="open-request" data-operation-id={r.operationId}>
            <div>
              <p className="target-name">
                <Link to={`/requests/${encodeURIComponent(r.operationId)}`}>
                  <code>{r.targetKey}</code> for {r.subjectId}
                </Link>{' '}
                {r.duration ? (
                  <span className="muted" data-testid="open-request-duration">
                    for {describeDuration(r.duration)}{' '}
                  </span>
                ) : null}
                <StatusBadge status={r.status} />
              </p>
              <p className="muted" data-testid="open-request-next" data-waiting-for={r.waiting?.waitingFor ?? ''}>
                {nextOf(r)}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <p className="small">
        <Link to="/records">All my requests</Link>
      </p>
    </section>
  );
}
