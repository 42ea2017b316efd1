import { useEffect, useRef, useState } from 'react';
import type { ApiFailure } from '../api/client';
import { giveUpBinding, listMyBindings } from '../api/endpoints';
import type { Binding } from '../api/types';
import { DataTable } from '../components/DataTable';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { expiresIn, formatDateTime, formatUntilDay } from '../logic/format';
import { useLoad } from '../logic/hooks';
import { Link, useNavigate, useSearchParams, type NavigateFunction } from '../router/router';
import { renewable, renewalState } from './renewal';

/** The expiry cell: the last day (as the person chose it), and for a grant in effect how long it has left. */
function expiry(b: Binding): string {
  if (!b.expiresAt) return 'Never';
  const left = b.status === 'VALIDATED' ? expiresIn(b.expiresAt) : '';
  const day = formatUntilDay(b.expiresAt);
  return left ? `${day} (${left})` : day;
}

/** In effect, so it can be given up: VALIDATED, or a grant whose removal was not approved (REMOVAL_REJECTED). */
function givableUp(b: Binding): boolean {
  return b.status === 'VALIDATED' || b.status === 'REMOVAL_REJECTED';
}

/**
 * The expiry reminder's link (issue 32): {@code /bindings?renew=<target>&subject=<subject>} opens the renewal form of
 * that grant, filled in, once the bindings are loaded; a link to a grant that is no longer renewable just shows the page.
 */
function useRenewalLink(rows: Binding[], loaded: boolean, navigate: NavigateFunction) {
  const [params] = useSearchParams();
  const opened = useRef(false);
  const target = params.get('renew');
  const subject = params.get('subject');
  useEffect(() => {
    if (opened.current || !loaded || !target || !subject) return;
    opened.current = true;
    const grant = rows.find((b) => b.targetKey === target && b.subjectId === subject);
    if (grant && renewable(grant)) void navigate('/', { state: renewalState(grant) });
  }, [rows, loaded, target, subject, navigate]);
}

/**
 * My access (route /bindings): the subject-target relationships and their external state, each grant's expiry, and for a grant
 * in effect "Give up" (its line is removed through the workflow, no approval) and, when it has an expiry, "Renew"
 * (a new request with another expiry, approved like a new grant).
 */
export function BindingsPage() {
  const navigate = useNavigate();
  const [state, reload] = useLoad(['bindings'], (signal) => listMyBindings(signal));
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const rows = state.status === 'ok' && Array.isArray(state.data) ? state.data : [];
  useRenewalLink(rows, state.status === 'ok', navigate);

  async function giveUp(b: Binding) {
    const key = `${b.subjectId}/${b.targetKey}`;
    setBusy(key);
    setFailure(null);
    const result = await giveUpBinding(b.targetKey, b.subjectId);
    setBusy(null);
    if (result.ok) {
      reload();
    } else {
      setFailure(result);
    }
  }

  return (
    <section className="panel" data-testid="bindings-page">
      <PageHeading>My access</PageHeading>
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load your bindings." onRetry={reload} /> : null}
      {failure ? <ErrorNotice error={failure} title="Could not give this access up." testId="give-up-error" /> : null}
      {state.status === 'ok' && rows.length === 0 ? <p className="muted">You have no access through Changeflow yet.</p> : null}
      {rows.length > 0 ? (
        <DataTable columns={['Subject', 'Target', 'Status', 'Expires', 'Last change', 'Request', 'Actions']} testId="bindings">
          {rows.map((b) => {
            const key = `${b.subjectId}/${b.targetKey}`;
            return (
              <tr key={key} data-testid="binding">
                <td>{b.subjectId}</td>
                <td>
                  <code>{b.targetKey}</code>
                </td>
                <td>
                  <StatusBadge status={b.status} />
                </td>
                <td>{expiry(b)}</td>
                <td>{formatDateTime(b.updatedAt)}</td>
                <td>
                  {b.operationId ? (
                    <Link to={`/requests/${encodeURIComponent(b.operationId)}`}>Open</Link>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  {renewable(b) ? (
                    <button
                      type="button"
                      className="button-secondary"
                      data-testid="renew"
                      aria-label={`Renew ${b.targetKey} for ${b.subjectId}`}
                      onClick={() => void navigate('/', { state: renewalState(b) })}
                    >
                      Renew
                    </button>
                  ) : null}{' '}
                  {givableUp(b) ? (
                    <button type="button" data-testid="give-up" disabled={busy === key} onClick={() => void giveUp(b)}>
                      Give up
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </DataTable>
      ) : null}
    </section>
  );
}
