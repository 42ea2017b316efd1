import { useState } from 'react';
import { listBatches, settleBatch, startBatchRound } from '../api/endpoints';
import type { BatchRound, RequestView, Settlement } from '../api/types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Fact } from '../components/Fact';
import { HintText } from '../components/HintText';
import { FilterSelect } from '../components/ListFilters';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { MergeRequestLink } from '../components/RequestDetails';
import { StatusBadge } from '../components/StatusBadge';
import { displayValue, formatDateTime } from '../logic/format';
import { LIST_REFRESH_MS, useRefreshing } from '../logic/hooks';
import { Link, useSearchParams } from '../router/router';
import { ActionResult, informational, outcomeOf, type ActionOutcome, type Tone } from './common';
import { consolePaths } from './paths';

const ACTIVE = new Set(['RUNNING', 'BLOCKED']);

/** A member as the server sends it (a request view); an older server's bare id is read as one. */
export function memberView(member: unknown): Partial<RequestView> & { operationId: string } {
  if (typeof member === 'string' || typeof member === 'number') return { operationId: String(member) };
  if (member && typeof member === 'object' && typeof (member as { operationId?: unknown }).operationId === 'string') {
    return member as RequestView;
  }
  return { operationId: displayValue(member) };
}

/** What a round did, in words beyond the server's message. */
export function roundExtra(code: string, data: BatchRound | null): string | undefined {
  if (code !== 'CLAIMED' || !data) return undefined;
  const count = Array.isArray(data.members) ? data.members.length : 0;
  const batch = data.batchId !== null && data.batchId !== undefined ? `Batch ${data.batchId}` : 'A batch';
  return data.scheduled === false
    ? `${batch} could not start; its ${count} request(s) wait for a later round.`
    : `${batch} took ${count} request(s).`;
}

export function roundTone(code: string, data: BatchRound | null): Tone {
  if (code === 'CLAIMED') return data?.scheduled === false ? 'warning' : 'success';
  return code === 'SLOT_OCCUPIED' ? 'warning' : 'info';
}

/** The settlement's outcome, failure kind and plan for the members, in words. */
export function settlementExtra(data: Settlement | null): string | undefined {
  if (!data?.outcome) return undefined;
  const parts = [`Outcome: ${data.outcome}.`];
  if (data.batchStatus) parts.push(`Batch now ${data.batchStatus}.`);
  if (data.failureKind) parts.push(`Failure: ${data.failureKind}.`);
  if (data.plan) parts.push(`Members: ${PLANS[data.plan] ?? data.plan}.`);
  return parts.join(' ');
}

const PLANS: Record<string, string> = {
  REQUEUE_ALL: 'all wait for a later round (REQUEUE_ALL)',
  SPLIT: 'retried in two halves (SPLIT)',
  BLAME: 'the one member failed (BLAME)',
  GIVE_UP: 'every member failed, split limit reached (GIVE_UP)',
};

export function settlementTone(data: Settlement | null): Tone {
  if (data?.outcome === 'RETRY_LATER') return 'warning';
  return data?.outcome === 'FAILED' ? 'info' : 'success';
}

function Members({ members }: { members: unknown[] }) {
  if (members.length === 0) return <>—</>;
  return (
    <ul className="member-list" data-testid="batch-members">
      {members.map(memberView).map((m) => (
        <li key={m.operationId} data-testid="batch-member" data-operation-id={m.operationId}>
          <Link to={consolePaths.operation(m.operationId)}>
            <code>{m.operationId.slice(0, 8)}</code>
            <span className="visually-hidden"> (request {m.operationId})</span>
          </Link>{' '}
          {m.status !== undefined ? <StatusBadge status={m.status} /> : null}{' '}
          {m.targetKey ? (
            <span className="muted small">
              <code>{m.targetKey}</code>
              {m.subjectId ? ` / ${m.subjectId}` : ''}
            </span>
          ) : null}{' '}
          {m.hint ? (
            <span className="muted small">
              <HintText hint={m.hint} />
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export const BATCHES_LISTED = 50;

/**
 * Batches and their members; start a batch round; settle a stuck or blocked batch. The list refreshes itself
 * while the page is visible; its status and partition filters are in the URL (`?status=BLOCKED&partition=wiki`)
 * and applied by the server before its limit, so an older match is never hidden by newer batches.
 */
export function BatchesPage() {
  const [params, setParams] = useSearchParams();
  const statusFilter = params.get('status') ?? '';
  const partitionFilter = params.get('partition') ?? '';
  const state = useRefreshing(
    ['batches', BATCHES_LISTED, statusFilter, partitionFilter],
    (signal) => listBatches({ limit: BATCHES_LISTED, status: statusFilter, partition: partitionFilter }, signal),
    LIST_REFRESH_MS,
  );
  const { reload } = state;
  // every partition seen on this page, so a filtered list still offers the others
  const [seenPartitions] = useState(() => new Set<string>());
  const setFilter = (name: 'status' | 'partition', value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });
  const [partition, setPartition] = useState('global');
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);

  async function startRound() {
    setBusy('round');
    const result = await startBatchRound(partition.trim() || 'global');
    setBusy(null);
    setOutcome(
      outcomeOf(
        result,
        (d) => roundExtra(result.ok ? result.code : '', d),
        (code, d) => roundTone(code, d),
      ),
    );
    reload();
  }

  async function settle(id: number | string) {
    setBusy(`settle-${id}`);
    const result = await settleBatch(id);
    setBusy(null);
    // ALREADY_SETTLED: it had ended (or another operator ended it first); nothing was done.
    setOutcome(
      !result.ok && result.code === 'ALREADY_SETTLED'
        ? informational(result, 'Nothing was done.')
        : outcomeOf(result, settlementExtra, (_code, d) => settlementTone(d)),
    );
    reload();
  }

  const batches = Array.isArray(state.data) ? state.data : [];
  batches.forEach((b) => seenPartitions.add(b.partition));
  const filtered = statusFilter !== '' || partitionFilter !== '';
  const choices = (values: string[], current: string) =>
    [...new Set([...values, ...(current ? [current] : [])])].sort().map((value) => ({ value, label: value }));

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

      <div className="inline-form" role="group" aria-label="Filters">
        <FilterSelect
          id="batch-filter-status"
          label="Status"
          value={statusFilter}
          options={choices(['RUNNING', 'SUCCEEDED', 'FAILED', 'BLOCKED'], statusFilter)}
          onChange={(value) => setFilter('status', value)}
        />
        <FilterSelect
          id="batch-filter-partition"
          label="Partition"
          value={partitionFilter}
          options={choices([...seenPartitions], partitionFilter)}
          onChange={(value) => setFilter('partition', value)}
        />
      </div>

      {state.loading ? <Loading /> : null}
      {state.error ? <ErrorNotice error={state.error} title="Could not load the batches." onRetry={reload} /> : null}
      {state.data && batches.length === 0 && !filtered ? <p className="muted">No batches yet.</p> : null}
      {state.data && batches.length === 0 && filtered ? (
        <p className="muted" data-testid="batches-none-match">
          No batch matches these filters.
        </p>
      ) : null}
      <ul className="cards">
        {batches.map((b) => (
          <li key={String(b.id)} className="card" data-testid="batch" data-batch-id={String(b.id)} data-status={b.status}>
            <p className="card-title">
              Batch {String(b.id)} <span className={`badge ${ACTIVE.has(b.status) ? 'badge-progress' : 'badge-ended'}`}>{b.status}</span>
            </p>
            <dl className="facts compact">
              <Fact term="Partition">{b.partition}</Fact>
              <Fact term="Depth">{displayValue(b.depth)}</Fact>
              <Fact term="Merge request">
                <MergeRequestLink view={b} />
              </Fact>
              <Fact term="Members">
                <Members members={Array.isArray(b.members) ? b.members : []} />
              </Fact>
              {b.detail ? (
                <Fact term="Detail">{b.detail}</Fact>
              ) : null}
              <Fact term="Last change">{formatDateTime(b.updatedAt)}</Fact>
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
