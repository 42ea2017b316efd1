import { useState, type FormEvent } from 'react';
import type { ApiFailure } from '../api/client';
import { findOperations, runReconciliation } from '../api/endpoints';
import type { RequestView } from '../api/types';
import { ErrorNotice } from '../components/ErrorNotice';
import { HintText } from '../components/HintText';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { formatDateTime } from '../logic/format';
import { STATUS_LABELS } from '../logic/timeline';
import { Link } from '../router/router';
import { ActionResult, outcomeOf, type ActionOutcome } from './common';
import { consolePaths } from './paths';

type Search = { status: 'idle' } | { status: 'loading' } | { status: 'ok'; rows: RequestView[] } | { status: 'error'; error: ApiFailure };

/** Find stuck requests; run the lost-callback reconciliation. */
export function OperationsPage() {
  const [stuckFor, setStuckFor] = useState('600');
  const [status, setStatus] = useState('');
  const [search, setSearch] = useState<Search>({ status: 'idle' });
  const [reconciling, setReconciling] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function find(event?: FormEvent) {
    event?.preventDefault();
    setSearch({ status: 'loading' });
    const seconds = stuckFor.trim() === '' ? null : Math.max(0, Math.floor(Number(stuckFor)));
    const result = await findOperations({
      status: status || undefined,
      stuckForSeconds: seconds !== null && Number.isFinite(seconds) ? seconds : null,
      limit: 100,
    });
    setSearch(result.ok ? { status: 'ok', rows: Array.isArray(result.data) ? result.data : [] } : { status: 'error', error: result });
  }

  async function reconcile() {
    setReconciling(true);
    const result = await runReconciliation();
    setReconciling(false);
    setOutcome(outcomeOf(result, (d) => (d ? `Examined ${d.examined}, advanced ${d.advanced}.` : undefined)));
  }

  return (
    <section className="panel" data-testid="ops-operations-page">
      <PageHeading>Stuck requests</PageHeading>
      <form className="inline-form" onSubmit={(e) => void find(e)} data-testid="ops-search">
        <div className="field">
          <label htmlFor="ops-stuck">Unchanged for at least (seconds)</label>
          <input id="ops-stuck" type="number" min={0} inputMode="numeric" value={stuckFor} onChange={(e) => setStuckFor(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="ops-status">Status</label>
          <select id="ops-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {Object.entries(STATUS_LABELS).map(([code, label]) => (
              <option key={code} value={code}>
                {code} — {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" data-testid="ops-find">
          Find
        </button>
      </form>

      {search.status === 'loading' ? <Loading label="Searching…" /> : null}
      {search.status === 'error' ? <ErrorNotice error={search.error} title="Could not search." /> : null}
      {search.status === 'ok' && search.rows.length === 0 ? <p className="muted">No matching requests.</p> : null}
      {search.status === 'ok' && search.rows.length > 0 ? (
        <div className="table-wrap">
          <table data-testid="ops-results">
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Target / subject</th>
                <th scope="col">Status</th>
                <th scope="col">Step</th>
                <th scope="col">Hint</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              {search.rows.map((r) => (
                <tr key={r.operationId} data-testid="ops-result" data-operation-id={r.operationId}>
                  <td>
                    <Link to={consolePaths.operation(r.operationId)}>
                      <code>{r.operationId.slice(0, 8)}</code>
                    </Link>
                  </td>
                  <td>
                    <code>{r.targetKey}</code> / {r.subjectId}
                  </td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    <code>{r.step ?? '—'}</code>
                  </td>
                  <td>
                    <HintText hint={r.hint} />
                  </td>
                  <td>{formatDateTime(r.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <section aria-labelledby="reconcile-title" className="subsection">
        <h2 id="reconcile-title">Reconciliation</h2>
        <p className="muted">Looks for callbacks that never arrived and advances the requests they would have moved.</p>
        <button type="button" onClick={() => void reconcile()} disabled={reconciling} data-testid="ops-reconcile">
          {reconciling ? 'Running…' : 'Run reconciliation now'}
        </button>
        <ActionResult outcome={outcome} testId="reconcile-result" />
      </section>
    </section>
  );
}
