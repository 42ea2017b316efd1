import { useEffect, useState, type FormEvent } from 'react';
import { findOperations, runReconciliation } from '../api/endpoints';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { HintText } from '../components/HintText';
import { FilterSelect, useTargetChoices } from '../components/ListFilters';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { formatDateTime } from '../logic/format';
import { LIST_REFRESH_MS, useRefreshing } from '../logic/hooks';
import { STATUS_LABELS } from '../logic/timeline';
import { Link, useLocation, useNavigate } from '../router/router';
import { ActionResult, outcomeOf, type ActionOutcome } from './common';
import { GitLabCheckPanel } from './GitLabCheckPanel';
import { OverduePanel } from './OverduePanel';
import { consolePaths, readStuckQuery, stuckList } from './paths';

/**
 * Find stuck requests; run the lost-callback reconciliation. The search lives in the URL
 * (`?status=&target=&stuckFor=`, see `stuckList`): a URL that names one runs it on open (the overview's links),
 * and Find writes it back, so back, reload and sharing show the same list. A search shown refreshes itself
 * while the page is visible.
 */
export function OperationsPage() {
  const { search: query } = useLocation();
  const navigate = useNavigate();
  const asked = readStuckQuery(query);
  const [stuckFor, setStuckFor] = useState(asked ? String(asked.stuckForSeconds ?? 0) : '600');
  const [status, setStatus] = useState(asked?.status ?? '');
  const [target, setTarget] = useState(asked?.target ?? '');
  const [reconciling, setReconciling] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const { targetKeys } = useTargetChoices(target || null);

  const search = useRefreshing(
    ['stuck', asked?.status ?? null, asked?.target ?? null, asked?.stuckForSeconds ?? 0],
    (signal) =>
      findOperations(
        { status: asked?.status, targetKey: asked?.target, stuckForSeconds: asked?.stuckForSeconds ?? 0, limit: 100 },
        signal,
      ),
    LIST_REFRESH_MS,
    asked !== null,
  );
  const rows = Array.isArray(search.data) ? search.data : [];

  // back and forward change the URL under the form: the fields follow it
  useEffect(() => {
    const wanted = readStuckQuery(query);
    if (!wanted) return;
    setStatus(wanted.status ?? '');
    setTarget(wanted.target ?? '');
    setStuckFor(String(wanted.stuckForSeconds ?? 0));
  }, [query]);

  function find(event?: FormEvent) {
    event?.preventDefault();
    const parsed = stuckFor.trim() === '' ? 0 : Math.max(0, Math.floor(Number(stuckFor)));
    const seconds = Number.isFinite(parsed) ? parsed : 0;
    const next = stuckList({ status: status || undefined, target: target || undefined, stuckForSeconds: seconds });
    // The same URL does not change the location: search again directly then.
    if (`${consolePaths.stuck}${query}` === next) search.reload();
    else void navigate(next);
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
      <GitLabCheckPanel />
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
        <FilterSelect
          id="ops-target"
          label="Target"
          value={target}
          options={targetKeys.map((key) => ({ value: key, label: key }))}
          onChange={setTarget}
        />
        <button type="submit" data-testid="ops-find">
          Find
        </button>
      </form>

      {search.loading ? <Loading label="Searching…" /> : null}
      {search.error ? <ErrorNotice error={search.error} title="Could not search." onRetry={search.reload} /> : null}
      {search.data && rows.length === 0 ? <p className="muted">No matching requests.</p> : null}
      {rows.length > 0 ? (
        <DataTable columns={['Request', 'Target / subject', 'Status', 'Step', 'Hint', 'Last change']} testId="ops-results">
          {rows.map((r) => (
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
        </DataTable>
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
