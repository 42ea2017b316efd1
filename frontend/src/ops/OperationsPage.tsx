import { useEffect, useState, type FormEvent } from 'react';
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
import { Link, navigate, useLocation } from '../router/router';
import { ActionResult, outcomeOf, type ActionOutcome } from './common';
import { OverduePanel } from './OverduePanel';
import { consolePaths, readStuckQuery, stuckList } from './paths';

type Search = { status: 'idle' } | { status: 'loading' } | { status: 'ok'; rows: RequestView[] } | { status: 'error'; error: ApiFailure };

/**
 * Find stuck requests; run the lost-callback reconciliation. The search lives in the URL
 * (`?status=&stuckFor=`, see `stuckList`): a URL that names one runs it on open (the overview's links), and
 * Find writes it back, so back, reload and sharing show the same list.
 */
export function OperationsPage() {
  const { search: query } = useLocation();
  const asked = readStuckQuery(query);
  const [stuckFor, setStuckFor] = useState(asked ? String(asked.stuckForSeconds ?? 0) : '600');
  const [status, setStatus] = useState(asked?.status ?? '');
  const [search, setSearch] = useState<Search>({ status: 'idle' });
  const [reconciling, setReconciling] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function run(wantedStatus: string, seconds: number | null) {
    setSearch({ status: 'loading' });
    const result = await findOperations({ status: wantedStatus || undefined, stuckForSeconds: seconds, limit: 100 });
    setSearch(result.ok ? { status: 'ok', rows: Array.isArray(result.data) ? result.data : [] } : { status: 'error', error: result });
  }

  useEffect(() => {
    const wanted = readStuckQuery(query);
    if (!wanted) return;
    setStatus(wanted.status ?? '');
    setStuckFor(String(wanted.stuckForSeconds ?? 0));
    void run(wanted.status ?? '', wanted.stuckForSeconds ?? 0);
  }, [query]);

  function find(event?: FormEvent) {
    event?.preventDefault();
    const parsed = stuckFor.trim() === '' ? 0 : Math.max(0, Math.floor(Number(stuckFor)));
    const seconds = Number.isFinite(parsed) ? parsed : 0;
    const target = stuckList({ status: status || undefined, stuckForSeconds: seconds });
    // The same URL does not change the location: search directly then.
    if (`${consolePaths.stuck}${query}` === target) void run(status, seconds);
    else navigate(target);
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
      <OverduePanel />
      <form className="inline-form" onSubmit={find} data-testid="ops-search">
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
