import { useEffect, useRef, useState } from 'react';
import { getTargets } from '../api/endpoints';
import type { RequestView } from '../api/types';
import { AskedBy } from '../components/AskedBy';
import { kindTitle } from '../components/ChangeKindStory';
import { isTemporarilyUnavailable, RETRYING_TITLE } from '../api/client';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { RequestDetails } from '../components/RequestDetails';
import { useLoad } from '../logic/hooks';
import type { PollerSnapshot } from '../logic/polling';
import {
  askNotificationPermission,
  noticeFor,
  notificationPermission,
  pageInFront,
  showNotice,
  type NotifyPermission,
} from '../logic/notify';
import { isFinished } from '../logic/polling';
import { statusLabel } from '../logic/timeline';
import { useRequestFollow } from '../logic/useRequestFollow';
import { Link, useNavigate } from '../router/router';
import type { PrefillState } from './HomePage';

export function pollText(snapshot: PollerSnapshot): string {
  switch (snapshot.phase) {
    case 'loading':
      return 'Checking for updates…';
    case 'waiting':
      return `Updates automatically; next check in ${Math.round((snapshot.delayMs ?? 0) / 1000)} s.`;
    case 'paused':
      return 'Paused while this tab is in the background.';
    case 'stopped':
      return snapshot.stopReason === 'finished' ? 'Final state: no more updates.' : 'Not updating.';
    default:
      return '';
  }
}

export const APP_TITLE = 'Changeflow';

/** The tab's title: the state first, so a tab in the background says it ("In effect · Request · Changeflow"). */
export function requestTitle(view: (Pick<RequestView, 'status'> & Partial<Pick<RequestView, 'kind'>>) | null): string {
  return view ? `${statusLabel(view.status)} · ${kindTitle(view.kind)} · ${APP_TITLE}` : `Request · ${APP_TITLE}`;
}

/** Asking is the person's choice, on their click; shown while the request may still change. */
function NotifyControl({ permission, onAsk }: { permission: NotifyPermission; onAsk: () => void }) {
  if (permission === 'unsupported') return null;
  if (permission === 'granted') {
    return (
      <p className="muted small" data-testid="notify-status" data-permission="granted">
        You get a browser notification when this request finishes or needs you.
      </p>
    );
  }
  if (permission === 'denied') {
    return (
      <p className="muted small" data-testid="notify-status" data-permission="denied">
        Notifications are blocked for this site in your browser.
      </p>
    );
  }
  return (
    <button type="button" className="button-secondary button-small" onClick={onAsk} data-testid="notify-me">
      Notify me when it finishes
    </button>
  );
}

/** Follow one request live. */
export function RequestPage({ operationId }: { operationId: string }) {
  const navigate = useNavigate();
  const [permission, setPermission] = useState<NotifyPermission>(() => notificationPermission());
  const granted = useRef(permission === 'granted');
  granted.current = permission === 'granted';
  // With notifications wanted, a hidden tab keeps looking (same backoff), so it can tell the person.
  const { view, error, snapshot, refreshNow } = useRequestFollow(operationId, { pollWhileHidden: () => granted.current });
  const previous = useRef<RequestView | null>(null);

  useEffect(() => {
    if (!view) return;
    const notice = noticeFor(previous.current, view);
    previous.current = view;
    if (notice && granted.current && !pageInFront()) showNotice(notice, operationId);
  }, [view, operationId]);

  const title = requestTitle(view);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(
    () => () => {
      document.title = APP_TITLE;
    },
    [],
  );

  const ask = () => {
    void askNotificationPermission().then(setPermission);
  };
  // Whether the target is merged in batch rounds: the timeline expects "picked up by a batch round" then.
  const [targets] = useLoad(['targets'], (signal) => getTargets(signal));
  const target =
    view && targets.status === 'ok' && Array.isArray(targets.data) ? targets.data.find((t) => t.key === view.targetKey) : undefined;

  const applyAgain = () => {
    if (!view) return;
    const state: PrefillState = {
      prefill: { targetKey: view.targetKey, subjectId: view.subjectId, reason: view.reason },
    };
    void navigate('/', { state });
  };

  const pollRow = (
    <div className="poll-row">
      <p className="muted" data-testid="poll-status" data-phase={snapshot.phase}>
        {pollText(snapshot)}
      </p>
      <button type="button" className="button-secondary button-small" onClick={refreshNow} data-testid="refresh-now">
        Check now
      </button>
      {view && !isFinished(view) ? <NotifyControl permission={permission} onAsk={ask} /> : null}
    </div>
  );

  return (
    <section className="panel request-page" data-testid="request-page" data-operation-id={operationId}>
      <p className="breadcrumb">
        <Link to="/records">My records</Link>
      </p>
      <PageHeading>{kindTitle(view?.kind)}</PageHeading>
      <p className="muted">
        Reference: <code data-testid="request-id">{operationId}</code>
      </p>
      {!view ? pollRow : null}
      {error ? (
        <ErrorNotice
          error={error}
          title={
            isTemporarilyUnavailable(error) && snapshot.phase !== 'stopped'
              ? view
                ? `${RETRYING_TITLE} Showing the last known state.`
                : RETRYING_TITLE
              : view
                ? 'Could not refresh the request; showing the last known state.'
                : 'Could not load the request.'
          }
        />
      ) : null}
      {!view && !error ? <Loading label="Loading the request…" /> : null}
      {view ? <AskedBy view={view} /> : null}
      {view ? (
        <RequestDetails
          view={view}
          onApplyAgain={applyAgain}
          statusExtra={pollRow}
          targetBatchable={target?.batchable}
          grantHref={(id) => `/requests/${encodeURIComponent(id)}`}
        />
      ) : null}
    </section>
  );
}
