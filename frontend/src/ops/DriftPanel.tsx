import { useState } from 'react';
import { acknowledgeDrift, adoptDrift, listDrift, removeDrift } from '../api/endpoints';
import type { DriftItem } from '../api/types';
import { DataTable } from '../components/DataTable';
import { PageHeading } from '../components/PageHeading';
import { formatDateTime } from '../logic/format';
import { useRefreshing } from '../logic/hooks';
import { Link } from '../router/router';
import { ActionResult, type ActionOutcome, informational, outcomeOf } from './common';
import { consolePaths } from './paths';

/** How many items the panel lists (newest sighting first). */
export const DRIFT_LISTED = 50;
/** How often it looks again while the page is visible. */
export const DRIFT_REFRESH_MS = 30_000;

/** What each kind means, in a few words (docs/operations.md, "Drift"). */
export const DRIFT_KIND_TEXT: Record<string, string> = {
  UNAPPROVED_LINE: 'a line nobody approved',
  ENDED_GRANT_LINE: 'a line of an ended grant',
  MISSING_LINE: 'a grant in effect without its line',
  EDITED_LINE: 'a grant line edited by hand',
  NOT_A_GRANT: 'content that is not a grant',
  BASELINE: 'on main when the target was first checked',
};

/** "1 drift item needs a decision", "3 drift items need a decision". */
export function driftHeadline(open: number): string {
  return open === 1 ? '1 drift item needs a decision' : `${open} drift items need a decision`;
}

/** Where the line came from, as GitLab said: "by mallory in 5ca1ab1e, 1 Mar 2026 08:00"; empty when it did not. */
export function evidenceText(item: DriftItem): string {
  const e = item.evidence;
  const parts = [
    e.author ? `by ${e.author}` : null,
    e.commitSha ? `in ${e.commitSha.slice(0, 8)}` : null,
    e.committedAt ? formatDateTime(e.committedAt) : null,
  ].filter((p): p is string => p !== null);
  return parts.join(', ');
}

/**
 * Drift (issue 36): where a grant file on main and the service's records disagree (GET /ops/drift, every item still
 * about main), each with its evidence and the actions its status allows: remove the line through the workflow, adopt
 * it as a grant request with an until (an approver decides), acknowledge it with a reason. Self-contained: loads on
 * open and every 30 s while visible, and again after an action.
 */
export function DriftPanel() {
  const loaded = useRefreshing(
    ['drift', DRIFT_LISTED],
    (signal) => listDrift({ limit: DRIFT_LISTED }, signal),
    DRIFT_REFRESH_MS,
  );
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const items = Array.isArray(loaded.data) ? loaded.data : [];
  const unhandled = items.filter((i) => i.status === 'OPEN' || i.status === 'REMOVING').length;

  async function act(item: DriftItem, run: () => ReturnType<typeof removeDrift>) {
    setBusy(item.id);
    setOutcome(null);
    const result = await run();
    setOutcome(
      !result.ok && result.code === 'DRIFT_ALREADY_HANDLED'
        ? informational(result)
        : outcomeOf(result, (d) => (d?.operationId ? `Request ${d.operationId.slice(0, 8)}.` : undefined)),
    );
    setBusy(null);
    loaded.reload();
  }

  return (
    <section aria-labelledby="drift-title" className="subsection" data-testid="ops-drift">
      <h2 id="drift-title">Drift between main and the records</h2>
      {loaded.loading ? <p className="muted">Looking…</p> : null}
      {loaded.error && !loaded.data ? (
        <p className="muted" data-testid="ops-drift-error" data-code={loaded.error.code}>
          Could not load the drift items ({loaded.error.code}).
        </p>
      ) : null}
      {loaded.data ? (
        <p data-testid="ops-drift-count" data-unhandled={unhandled}>
          {items.length === 0 ? (
            'Every grant file on main agrees with the records.'
          ) : (
            <strong>{driftHeadline(unhandled)}</strong>
          )}
        </p>
      ) : null}
      <ActionResult outcome={outcome} testId="ops-drift-result" />
      {items.length > 0 ? (
        <DataTable columns={['Target', 'Kind', 'Subject', 'Line on main', 'Evidence', 'Status', 'Actions']} testId="ops-drift-table">
          {items.map((item) => (
            <DriftRow key={item.id} item={item} busy={busy !== null} onAct={(run) => void act(item, run)} />
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

/** The console's drift page (/console/drift): the panel on a page of its own. */
export function DriftPage() {
  return (
    <section className="panel" data-testid="ops-drift-page">
      <PageHeading>Drift</PageHeading>
      <p className="muted">
        Where a grant file on main and the service&apos;s records disagree. What each kind means and what to do:
        docs/operations.md, &quot;Drift&quot;.
      </p>
      <DriftPanel />
    </section>
  );
}

function DriftRow({
  item,
  busy,
  onAct,
}: {
  item: DriftItem;
  busy: boolean;
  onAct: (run: () => ReturnType<typeof removeDrift>) => void;
}) {
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const allowed = new Set(item.allowedActions);
  const evidence = evidenceText(item);
  return (
    <tr data-testid="ops-drift-row" data-id={item.id} data-kind={item.kind} data-status={item.status}>
      <td>
        <code>{item.targetKey}</code>
      </td>
      <td title={item.note}>{DRIFT_KIND_TEXT[item.kind] ?? item.kind}</td>
      <td>{item.subjectId ?? '—'}</td>
      <td>
        <code data-testid="ops-drift-line">{item.line}</code>
      </td>
      <td data-testid="ops-drift-evidence">
        {evidence || 'GitLab did not say'}
        <span className="muted small"> · seen since {formatDateTime(item.firstSeen)}</span>
      </td>
      <td>
        {item.status}
        {item.statusActor !== 'system' ? <span className="muted small"> by {item.statusActor}</span> : null}
        {item.removalOperationId ? (
          <>
            {' '}
            <Link to={consolePaths.operation(item.removalOperationId)}>removal</Link>
          </>
        ) : null}
      </td>
      <td>
        <div className="toolbar">
          {allowed.has('REMOVE') ? (
            <button type="button" className="button-danger" disabled={busy} data-testid="ops-drift-remove"
              onClick={() => onAct(() => removeDrift(item.id))}>
              Remove the line
            </button>
          ) : null}
          {allowed.has('ADOPT') ? (
            <>
              <label className="small">
                Until{' '}
                <input type="text" value={until} placeholder="2026-12-31 or blank" data-testid="ops-drift-until"
                  onChange={(e) => setUntil(e.target.value)} />
              </label>
              <button type="button" disabled={busy} data-testid="ops-drift-adopt"
                onClick={() => onAct(() => adoptDrift(item.id, until))}>
                Adopt as a grant
              </button>
            </>
          ) : null}
          {allowed.has('ACKNOWLEDGE') ? (
            <>
              <label className="small">
                Reason{' '}
                <input type="text" value={reason} data-testid="ops-drift-reason" onChange={(e) => setReason(e.target.value)} />
              </label>
              <button type="button" className="button-secondary" disabled={busy || reason.trim() === ''}
                data-testid="ops-drift-acknowledge" onClick={() => onAct(() => acknowledgeDrift(item.id, reason))}>
                Acknowledge
              </button>
            </>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
