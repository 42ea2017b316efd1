import { listNotifications } from '../api/endpoints';
import type { QueuedNotification } from '../api/types';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { FilterSelect } from '../components/ListFilters';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { formatDateTime } from '../logic/format';
import { LIST_REFRESH_MS, useRefreshing } from '../logic/hooks';
import { safeHttpUrl } from '../logic/safeUrl';
import { useSearchParams } from '../router/router';

export const NOTIFICATIONS_LISTED = 50;

/** The outbox's states, in the words operators read them (docs/notifications.md). */
export const NOTIFICATION_STATES: Record<string, string> = {
  PENDING: 'Pending',
  RETRYING: 'Failed, retrying',
  GAVE_UP: 'Given up',
  SENT: 'Sent',
};

const BADGES: Record<string, string> = { GAVE_UP: 'badge-failure', SENT: 'badge-success' };

const RECIPIENTS: Record<string, string> = {
  PERSON: 'a person',
  REQUESTS: 'requests webhook',
  OPERATORS: 'operators webhook',
};

function Row({ n }: { n: QueuedNotification }) {
  const link = safeHttpUrl(n.link);
  return (
    <tr data-testid="ops-notification" data-id={String(n.id)} data-state={n.state}>
      <td>
        <span className={`badge ${BADGES[n.state] ?? ''}`}>
          {NOTIFICATION_STATES[n.state] ?? n.state}
        </span>
      </td>
      <td>
        {n.channel} to {RECIPIENTS[n.recipientKind] ?? n.recipientKind}
        {n.recipientKind === 'PERSON' ? <span className="muted small"> ({n.recipient})</span> : null}
      </td>
      <td>{link ? <a href={link}>{n.title}</a> : n.title}</td>
      <td className="num">{n.attempts}</td>
      <td>{n.state === 'SENT' ? `sent ${formatDateTime(n.sentAt)}` : n.state === 'GAVE_UP' ? '—' : formatDateTime(n.nextAttempt)}</td>
      <td data-testid="ops-notification-error">{n.lastError ?? '—'}</td>
    </tr>
  );
}

/**
 * The notifications' outbox (issue 32): every queued message, newest first, with where it stands; the state filter and
 * the page (`?state=RETRYING&before=120`) are in the URL and applied by the server. The list refreshes itself while the
 * page is visible.
 */
export function NotificationsPage() {
  const [params, setParams] = useSearchParams();
  const state = params.get('state') ?? '';
  const before = params.get('before') ?? '';
  const loaded = useRefreshing(
    ['notifications', NOTIFICATIONS_LISTED, state, before],
    (signal) => listNotifications({ limit: NOTIFICATIONS_LISTED, state, before }, signal),
    LIST_REFRESH_MS,
  );
  const set = (change: Record<string, string>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(change)) {
        if (value) next.set(name, value);
        else next.delete(name);
      }
      return next;
    });
  const rows = Array.isArray(loaded.data?.notifications) ? loaded.data.notifications : [];
  const nextBefore = loaded.data?.nextBefore ?? null;

  return (
    <section className="panel" data-testid="ops-notifications-page">
      <PageHeading>Notifications</PageHeading>
      <p className="muted">
        Mails and chat messages the service queued. A message that fails is retried with backoff for about nine hours, then
        given up; see the operations runbook when the retrying or given-up ones grow.
      </p>
      <div className="inline-form" role="group" aria-label="Filters">
        <FilterSelect
          id="notification-filter-state"
          label="State"
          value={state}
          options={Object.entries(NOTIFICATION_STATES).map(([value, label]) => ({ value, label }))}
          onChange={(value) => set({ state: value, before: '' })}
        />
        <button type="button" className="button-secondary" onClick={loaded.reload}>
          Reload
        </button>
      </div>
      {loaded.loading ? <Loading /> : null}
      {loaded.error ? <ErrorNotice error={loaded.error} title="Could not load the notifications." onRetry={loaded.reload} /> : null}
      {loaded.data && rows.length === 0 ? (
        <p className="muted" data-testid="ops-notifications-none">
          {state ? 'No notification in this state.' : 'No notification queued yet.'}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <DataTable
          columns={['State', 'To', 'About', { label: 'Attempts', num: true }, 'Next attempt', 'Last error']}
          testId="ops-notifications"
          caption="Queued notifications, newest first"
        >
          {rows.map((n) => (
            <Row key={n.id} n={n} />
          ))}
        </DataTable>
      ) : null}
      <div className="inline-form">
        {before ? (
          <button type="button" className="button-secondary" onClick={() => set({ before: '' })} data-testid="ops-notifications-newest">
            Newest
          </button>
        ) : null}
        {nextBefore !== null ? (
          <button type="button" onClick={() => set({ before: String(nextBefore) })} data-testid="ops-notifications-older">
            Older
          </button>
        ) : null}
      </div>
    </section>
  );
}
