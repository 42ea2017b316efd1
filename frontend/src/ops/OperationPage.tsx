import { useState } from 'react';
import { closeOperation, getOperation, retrigger } from '../api/endpoints';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { RequestDetails } from '../components/RequestDetails';
import { useLoad } from '../logic/hooks';
import { Link } from '../router/router';
import { ActionResult, GenericTable, outcomeOf, type ActionOutcome } from './common';

/** Whether the server lists the action as allowed; an absent list allows everything. */
export function isAllowed(allowed: unknown, action: string): boolean {
  if (!Array.isArray(allowed)) return true;
  return allowed.some((a) => typeof a === 'string' && a.toLowerCase().replace(/[^a-z]/g, '') === action);
}

/** One operation: both state layers, history, audit, and the recovery actions. */
export function OperationPage({ operationId }: { operationId: string }) {
  const [state, reload] = useLoad((signal) => getOperation(operationId, signal), [operationId]);
  const [busy, setBusy] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function run(action: 'retrigger' | 'close') {
    setBusy(true);
    setOutcome(null);
    if (action === 'retrigger') {
      const result = await retrigger(operationId);
      setOutcome(outcomeOf(result, (d) => (d?.step ? `Step ${d.step}${d.scheduled ? ' scheduled' : ''}.` : undefined)));
    } else {
      setOutcome(outcomeOf(await closeOperation(operationId)));
    }
    setBusy(false);
    setConfirmClose(false);
    reload();
  }

  const detail = state.status === 'ok' ? state.data : null;

  return (
    <section className="panel" data-testid="ops-operation-page" data-operation-id={operationId}>
      <p className="breadcrumb">
        <Link to="/ops">Stuck requests</Link>
      </p>
      <PageHeading>Operation</PageHeading>
      <p className="muted">
        <code>{operationId}</code>
      </p>
      {state.status === 'loading' && !detail ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load the operation." onRetry={reload} /> : null}
      {detail ? (
        <>
          <section aria-labelledby="actions-title" className="subsection">
            <h2 id="actions-title">Actions</h2>
            <div className="toolbar">
              <button
                type="button"
                onClick={() => void run('retrigger')}
                disabled={busy || !isAllowed(detail.allowedActions, 'retrigger')}
                data-testid="ops-retrigger"
              >
                Re-trigger the step
              </button>
              {confirmClose ? (
                <>
                  <button type="button" className="button-danger" onClick={() => void run('close')} disabled={busy} data-testid="ops-close-confirm">
                    Yes, close without merging
                  </button>
                  <button type="button" className="button-secondary" onClick={() => setConfirmClose(false)}>
                    Cancel
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="button-danger"
                  onClick={() => setConfirmClose(true)}
                  disabled={busy || !isAllowed(detail.allowedActions, 'close')}
                  data-testid="ops-close"
                >
                  Close…
                </button>
              )}
              <button type="button" className="button-secondary" onClick={reload}>
                Reload
              </button>
            </div>
            {Array.isArray(detail.allowedActions) ? (
              <p className="muted small">Allowed now: {detail.allowedActions.join(', ') || 'none'}</p>
            ) : null}
            <ActionResult outcome={outcome} testId="ops-action-result" />
          </section>

          <section aria-labelledby="layers-title" className="subsection">
            <h2 id="layers-title">State</h2>
            <dl className="facts">
              <div>
                <dt>External state (binding)</dt>
                <dd data-testid="ops-external-state">{detail.status ?? 'replaced'}</dd>
              </div>
              <div>
                <dt>Fine step</dt>
                <dd data-testid="ops-fine-step">
                  <code>{detail.step ?? '—'}</code>
                  {detail.stepCode !== null && detail.stepCode !== undefined ? ` (${detail.stepCode})` : ''}
                </dd>
              </div>
            </dl>
            {detail.binding ? (
              <>
                <h3>Binding row</h3>
                <GenericTable rows={[detail.binding]} testId="ops-binding" caption="Binding row" />
              </>
            ) : null}
          </section>

          <RequestDetails view={detail} />

          <section aria-labelledby="history-title" className="subsection">
            <h2 id="history-title">History</h2>
            <GenericTable rows={Array.isArray(detail.history) ? detail.history : []} testId="ops-history" caption="History" />
          </section>
          <section aria-labelledby="audit-title" className="subsection">
            <h2 id="audit-title">Audit</h2>
            <GenericTable rows={Array.isArray(detail.audit) ? detail.audit : []} testId="ops-audit" caption="Audit" />
          </section>
        </>
      ) : null}
    </section>
  );
}
