import { useState } from 'react';
import { listBatches, settleBatch, startBatchRound } from '../api/endpoints';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { MergeRequestLink } from '../components/RequestDetails';
import { displayValue, formatDateTime } from '../logic/format';
import { useLoad } from '../logic/hooks';
import { ActionResult, outcomeOf, type ActionOutcome } from './common';

const ACTIVE = new Set(['RUNNING', 'BLOCKED']);

/** Batches and their members; start a batch round; settle a stuck or blocked batch. */
export function BatchesPage() {
  const [state, reload] = useLoad((signal) => listBatches(50, signal), []);
  const [partition, setPartition] = useState('global');
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function startRound() {
    setBusy('round');
    const result = await startBatchRound(partition.trim() || 'global');
    setBusy(null);
    setOutcome(outcomeOf(result, (d) => (d && d.batchId !== undefined ? `Batch ${d.batchId}.` : undefined)));
    reload();
  }

  async function settle(id: number | string) {
    setBusy(`settle-${id}`);
    const result = await settleBatch(id);
    setBusy(null);
    setOutcome(outcomeOf(result, (d) => (d?.outcome ? `Outcome: ${d.outcome}.` : undefined)));
    reload();
  }

  const batches = state.status === 'ok' && Array.isArray(state.data) ? state.data : [];

  return (
    <section className="panel" data-testid="ops-batches-page">
      <PageHeading>Batches</PageHeading>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void startRound();
        }}
      >
        <div className="field">
          <label htmlFor="batch-partition">Partition</label>
          <input id="batch-partition" value={partition} onChange={(e) => setPartition(e.target.value)} />
        </div>
        <button type="submit" disabled={busy !== null} data-testid="ops-start-round">
          Start a batch round now
        </button>
        <button type="button" className="button-secondary" onClick={reload}>
          Reload
        </button>
      </form>
      <ActionResult outcome={outcome} testId="batch-action-result" />

      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load the batches." onRetry={reload} /> : null}
      {state.status === 'ok' && batches.length === 0 ? <p className="muted">No batches yet.</p> : null}
      <ul className="cards">
        {batches.map((b) => (
          <li key={String(b.id)} className="card" data-testid="batch" data-batch-id={String(b.id)} data-status={b.status}>
            <p className="card-title">
              Batch {String(b.id)} <span className={`badge ${ACTIVE.has(b.status) ? 'badge-progress' : 'badge-ended'}`}>{b.status}</span>
            </p>
            <dl className="facts compact">
              <div>
                <dt>Partition</dt>
                <dd>{b.partition}</dd>
              </div>
              <div>
                <dt>Depth</dt>
                <dd>{displayValue(b.depth)}</dd>
              </div>
              <div>
                <dt>Merge request</dt>
                <dd>
                  <MergeRequestLink view={b} />
                </dd>
              </div>
              <div>
                <dt>Members</dt>
                <dd>{Array.isArray(b.members) ? b.members.map(displayValue).join(', ') || '—' : '—'}</dd>
              </div>
              {b.detail ? (
                <div>
                  <dt>Detail</dt>
                  <dd>{b.detail}</dd>
                </div>
              ) : null}
              <div>
                <dt>Last change</dt>
                <dd>{formatDateTime(b.updatedAt)}</dd>
              </div>
            </dl>
            {ACTIVE.has(b.status) ? (
              <div className="card-actions">
                <button type="button" onClick={() => void settle(b.id)} disabled={busy !== null} data-testid="ops-settle">
                  Settle
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
