import { getTargets } from '../api/endpoints';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { RequestDetails } from '../components/RequestDetails';
import { useLoad } from '../logic/hooks';
import type { PollerSnapshot } from '../logic/polling';
import { useRequestFollow } from '../logic/useRequestFollow';
import { Link, navigate } from '../router/router';
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

/** Follow one request live. */
export function RequestPage({ operationId }: { operationId: string }) {
  const { view, error, snapshot, refreshNow } = useRequestFollow(operationId);
  // Whether the target is merged in batch rounds: the timeline expects "picked up by a batch round" then.
  const [targets] = useLoad((signal) => getTargets(signal), []);
  const target =
    view && targets.status === 'ok' && Array.isArray(targets.data) ? targets.data.find((t) => t.key === view.targetKey) : undefined;

  const applyAgain = () => {
    if (!view) return;
    const state: PrefillState = {
      prefill: { targetKey: view.targetKey, subjectId: view.subjectId, reason: view.reason },
    };
    navigate('/', { state });
  };

  const pollRow = (
    <div className="poll-row">
      <p className="muted" data-testid="poll-status" data-phase={snapshot.phase}>
        {pollText(snapshot)}
      </p>
      <button type="button" className="button-secondary button-small" onClick={refreshNow} data-testid="refresh-now">
        Check now
      </button>
    </div>
  );

  return (
    <section className="panel request-page" data-testid="request-page" data-operation-id={operationId}>
      <p className="breadcrumb">
        <Link to="/records">My records</Link>
      </p>
      <PageHeading>Request</PageHeading>
      <p className="muted">
        Reference: <code data-testid="request-id">{operationId}</code>
      </p>
      {!view ? pollRow : null}
      {error ? (
        <ErrorNotice
          error={error}
          title={view ? 'Could not refresh the request; showing the last known state.' : 'Could not load the request.'}
        />
      ) : null}
      {!view && !error ? <Loading label="Loading the request…" /> : null}
      {view ? (
        <RequestDetails view={view} onApplyAgain={applyAgain} statusExtra={pollRow} targetBatchable={target?.batchable} />
      ) : null}
    </section>
  );
}
