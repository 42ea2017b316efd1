import { useState } from 'react';
import { revokeGrant } from '../api/endpoints';
import type { Binding } from '../api/types';
import { Link } from '../router/router';
import { ActionResult, outcomeOf, type ActionOutcome } from './common';
import { consolePaths } from './paths';

/** The states in which the line of a grant is in the file and an operator may revoke it (docs/api.md). */
export const REVOCABLE = new Set(['VALIDATED', 'REMOVAL_REJECTED']);

/** The longest reason sent (the audit log keeps 200 characters of a parameter). */
export const REASON_MAX = 200;

/**
 * An operator's revocation of the grant of a subject-target row (issue 32): a reason (required, recorded in the audit
 * entry), "urgent" (its removal round runs at once instead of at the next scheduled run), then a confirm step. Calls
 * `POST /ops/bindings/{subjectId}/{targetKey}/revoke`; the answer names the removal, linked here.
 */
export function RevokePanel({ binding, onDone }: { binding: Binding; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const [removal, setRemoval] = useState<string | null>(null);
  if (!REVOCABLE.has(binding.status) && outcome === null) return null;
  const ready = reason.trim().length > 0;

  async function revoke() {
    setBusy(true);
    const result = await revokeGrant(binding.subjectId, binding.targetKey, { urgent, reason });
    setBusy(false);
    setConfirming(false);
    setOutcome(outcomeOf(result));
    setRemoval(result.ok ? result.data.operationId : null);
    onDone();
  }

  return (
    <section aria-labelledby="revoke-title" className="subsection" data-testid="ops-revoke">
      <h3 id="revoke-title">Revoke this grant</h3>
      {REVOCABLE.has(binding.status) ? (
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) setConfirming(true);
          }}
        >
          <div className="field">
            <label htmlFor="revoke-reason">Reason (recorded in the audit log)</label>
            <input
              id="revoke-reason"
              data-testid="ops-revoke-reason"
              value={reason}
              maxLength={REASON_MAX}
              onChange={(e) => {
                setReason(e.target.value);
                setConfirming(false);
              }}
            />
          </div>
          <div className="field">
            <label>
              <input
                type="checkbox"
                data-testid="ops-revoke-urgent"
                checked={urgent}
                onChange={(e) => {
                  setUrgent(e.target.checked);
                  setConfirming(false);
                }}
              />{' '}
              Urgent: run the removal round now
            </label>
          </div>
          {confirming ? (
            <>
              <button type="button" className="button-danger" onClick={() => void revoke()} disabled={busy} data-testid="ops-revoke-confirm">
                Yes, revoke {binding.subjectId}&apos;s access to {binding.targetKey}
                {urgent ? ' now' : ''}
              </button>
              <button type="button" className="button-secondary" onClick={() => setConfirming(false)} disabled={busy} data-testid="ops-revoke-cancel">
                Cancel
              </button>
            </>
          ) : (
            <button type="submit" className="button-danger" disabled={busy || !ready} data-testid="ops-revoke-start">
              Revoke…
            </button>
          )}
        </form>
      ) : null}
      <ActionResult outcome={outcome} testId="ops-revoke-result" />
      {removal ? (
        <p data-testid="ops-revoke-removal">
          <Link to={consolePaths.operation(removal)}>Follow the removal ({removal.slice(0, 8)})</Link>
        </p>
      ) : null}
    </section>
  );
}
