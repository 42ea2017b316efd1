import { useState } from 'react';
import { closeOperation, confirmDeployed, getOperation, markDeployFailed, retrigger } from '../api/endpoints';
import type { AuditEntry, Binding, HistoryEntry } from '../api/types';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { Fact } from '../components/Fact';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { RequestDetails } from '../components/RequestDetails';
import { StatusBadge } from '../components/StatusBadge';
import { formatDate, formatDateTime } from '../logic/format';
import { useLoad } from '../logic/hooks';
import { Link } from '../router/router';
import { ActionResult, outcomeOf, type ActionOutcome, type Tone } from './common';
import { consolePaths } from './paths';
import { RevokePanel } from './RevokePanel';

/** RETRIGGERED scheduled the step; NOT_SCHEDULED (work queue full) did nothing. */
export function retriggerTone(code: string): Tone {
  return code === 'RETRIGGERED' ? 'success' : 'warning';
}

/** CLOSED closed it; MERGED_WINS recorded it as merged; RETRY_LATER changed nothing. */
export function closeTone(code: string): Tone {
  if (code === 'CLOSED') return 'success';
  return code === 'MERGED_WINS' ? 'info' : 'warning';
}

/** CONFIRMED made it VALIDATED; MARKED_FAILED made it DEPLOY_FAILED. */
export function deployActionTone(code: string): Tone {
  return code === 'CONFIRMED' ? 'success' : 'info';
}

/** The states a deploy action can help in: merged but not (yet) confirmed in effect. */
const AWAITING_DEPLOY = new Set(['MERGED', 'DEPLOY_UNCONFIRMED', 'DEPLOY_FAILED']);

/**
 * Whether to show a deploy action at all: only where it helps. The server's list decides; without one,
 * only for a merged request that is not in effect ("mark failed" not once it is marked failed).
 */
export function offersDeployAction(
  detail: { status: string | null; allowedActions?: unknown },
  action: 'confirmdeployed' | 'markdeployfailed',
): boolean {
  if (Array.isArray(detail.allowedActions)) return isAllowed(detail.allowedActions, action);
  if (detail.status === null || !AWAITING_DEPLOY.has(detail.status)) return false;
  return action === 'confirmdeployed' || detail.status !== 'DEPLOY_FAILED';
}

/** The deploy actions' buttons, in toolbar order (each shown where {@link offersDeployAction} says so). */
const DEPLOY_ACTIONS = [
  {
    allowed: 'confirmdeployed',
    action: 'confirmDeployed',
    className: undefined,
    testId: 'ops-confirm-deployed',
    title: 'The change is live: record it as in effect (VALIDATED).',
    label: 'Confirm in effect',
  },
  {
    allowed: 'markdeployfailed',
    action: 'markDeployFailed',
    className: 'button-danger',
    testId: 'ops-mark-deploy-failed',
    title: 'Rolling the change out failed: record it as DEPLOY_FAILED.',
    label: 'Mark deploy failed',
  },
] as const;

function transition(from: string | null | undefined, to: string | null | undefined) {
  if (!from && !to) return '—';
  if (!from || from === to) return <code>{to ?? '—'}</code>;
  return (
    <>
      <code>{from}</code> → <code>{to ?? '—'}</code>
    </>
  );
}

function parametersText(parameters: AuditEntry['parameters']): string {
  if (!parameters || typeof parameters !== 'object') return '—';
  const entries = Object.entries(parameters);
  return entries.length === 0 ? '—' : entries.map(([k, v]) => `${k}=${String(v)}`).join(', ');
}

/** Both layers' history, oldest first as the server sends it. */
export function HistoryTable({ rows }: { rows: HistoryEntry[] }) {
  if (rows.length === 0) return <p className="muted">None.</p>;
  return (
    <DataTable
      columns={['When', 'Event', 'Step', 'Status', 'Actor', 'Detail']}
      testId="ops-history"
      caption="History of both state layers"
    >
      {rows.map((h, i) => (
        <tr key={`${h.event}-${h.at}-${i}`} data-testid="history-entry" data-event={h.event}>
          <td>{formatDateTime(h.at)}</td>
          <td>
            <code>{h.event}</code>
          </td>
          <td>{transition(h.fromStep, h.toStep)}</td>
          <td>{transition(h.fromStatus, h.toStatus)}</td>
          <td>{h.actor ?? '—'}</td>
          <td>{h.detail ?? ''}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Who did what to this request, with the (masked) parameters. */
export function AuditTable({ rows }: { rows: AuditEntry[] }) {
  if (rows.length === 0) return <p className="muted">None.</p>;
  return (
    <DataTable columns={['When', 'Operator', 'Action', 'Subject', 'Parameters']} testId="ops-audit" caption="Audit entries">
      {rows.map((a, i) => (
        <tr key={`${a.action}-${a.at}-${i}`} data-testid="audit-entry" data-action={a.action}>
          <td>{formatDateTime(a.at)}</td>
          <td>{a.actor}</td>
          <td>
            <code>{a.action}</code>
          </td>
          <td>
            <code>{a.subject ?? '—'}</code>
          </td>
          <td>{parametersText(a.parameters)}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The subject-target row, whoever's request owns it now. */
function BindingFacts({ binding, operationId }: { binding: Binding; operationId: string }) {
  const owner = binding.operationId;
  return (
    <dl className="facts compact" data-testid="ops-binding" data-status={binding.status}>
      <Fact term="Subject / target">
        {binding.subjectId} / <code>{binding.targetKey}</code>
      </Fact>
      <Fact term="Status">
        <StatusBadge status={binding.status} />
      </Fact>
      <Fact term="Owned by">
        {!owner ? (
          '—'
        ) : owner === operationId ? (
          'this request'
        ) : (
          <Link to={consolePaths.operation(owner)}>another request ({owner.slice(0, 8)})</Link>
        )}
      </Fact>
      <Fact term="Expires">{binding.expiresAt ? formatDate(binding.expiresAt) : 'Never'}</Fact>
      <Fact term="Last change">{formatDateTime(binding.updatedAt)}</Fact>
    </dl>
  );
}

/** Whether the server lists the action as allowed; an absent list allows everything. */
export function isAllowed(allowed: unknown, action: string): boolean {
  if (!Array.isArray(allowed)) return true;
  return allowed.some((a) => typeof a === 'string' && a.toLowerCase().replace(/[^a-z]/g, '') === action);
}

/** One operation: both state layers, history, audit, and the recovery actions. */
export function OperationPage({ operationId }: { operationId: string }) {
  const [state, reload] = useLoad(['operation', operationId], (signal) => getOperation(operationId, signal));
  const [busy, setBusy] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function run(action: 'retrigger' | 'close' | 'confirmDeployed' | 'markDeployFailed') {
    setBusy(true);
    setOutcome(null);
    if (action === 'confirmDeployed') {
      setOutcome(outcomeOf(await confirmDeployed(operationId), undefined, deployActionTone));
    } else if (action === 'markDeployFailed') {
      setOutcome(outcomeOf(await markDeployFailed(operationId), undefined, deployActionTone));
    } else if (action === 'retrigger') {
      const result = await retrigger(operationId);
      setOutcome(
        outcomeOf(
          result,
          (d) => (d?.step ? `Step ${d.step}${d.scheduled ? ' scheduled.' : ' not scheduled.'}` : undefined),
          retriggerTone,
        ),
      );
    } else {
      setOutcome(outcomeOf(await closeOperation(operationId), undefined, closeTone));
    }
    setBusy(false);
    setConfirmClose(false);
    reload();
  }

  const detail = state.status === 'ok' ? state.data : null;

  return (
    <section className="panel" data-testid="ops-operation-page" data-operation-id={operationId}>
      <p className="breadcrumb">
        <Link to={consolePaths.stuck}>Stuck requests</Link>
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
              {DEPLOY_ACTIONS.filter((deploy) => offersDeployAction(detail, deploy.allowed)).map((deploy) => (
                <button
                  key={deploy.allowed}
                  type="button"
                  className={deploy.className}
                  onClick={() => void run(deploy.action)}
                  disabled={busy}
                  data-testid={deploy.testId}
                  title={deploy.title}
                >
                  {deploy.label}
                </button>
              ))}
              <button type="button" className="button-secondary" onClick={reload}>
                Reload
              </button>
            </div>
            {Array.isArray(detail.allowedActions) ? (
              <p className="muted small" data-testid="ops-allowed-actions">
                Allowed now: {detail.allowedActions.join(', ') || 'none'}
              </p>
            ) : null}
            {detail.retriggerStep ? (
              <p className="muted small" data-testid="ops-retrigger-step">
                A re-trigger runs the step <code>{detail.retriggerStep}</code>.
              </p>
            ) : null}
            <ActionResult outcome={outcome} testId="ops-action-result" />
          </section>

          <section aria-labelledby="layers-title" className="subsection">
            <h2 id="layers-title">State</h2>
            <dl className="facts">
              <Fact term="External state (binding)" testId="ops-external-state">{detail.status ?? 'replaced'}</Fact>
              <Fact term="Fine step" testId="ops-fine-step">
                <code>{detail.step ?? '—'}</code>
                {detail.stepCode !== null && detail.stepCode !== undefined ? ` (${detail.stepCode})` : ''}
              </Fact>
            </dl>
            {detail.binding ? (
              <>
                <h3>Binding row</h3>
                <BindingFacts binding={detail.binding} operationId={operationId} />
                <RevokePanel key={`${detail.binding.subjectId}/${detail.binding.targetKey}`} binding={detail.binding} onDone={reload} />
              </>
            ) : (
              <p className="muted">No subject-target row.</p>
            )}
          </section>

          <RequestDetails view={detail} grantHref={consolePaths.operation} />

          <section aria-labelledby="history-title" className="subsection">
            <h2 id="history-title">History</h2>
            <HistoryTable rows={Array.isArray(detail.history) ? detail.history : []} />
          </section>
          <section aria-labelledby="audit-title" className="subsection">
            <h2 id="audit-title">Audit</h2>
            <AuditTable rows={Array.isArray(detail.audit) ? detail.audit : []} />
          </section>
        </>
      ) : null}
    </section>
  );
}
