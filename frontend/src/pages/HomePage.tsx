import { useEffect, useRef, useState } from 'react';
import { getTargets } from '../api/endpoints';
import type { Target } from '../api/types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { RequestForm, type RenewalPrefill, type RequestFormValues } from '../components/RequestForm';
import { useLoad } from '../logic/hooks';
import { useLocation, useNavigate } from '../router/router';
import { useOptionalMe } from '../session/session';
import { MyAccess, OpenRequests } from './home/MyHome';

/** History state carried by "Apply again" and "Renew": the new form starts with these values. */
export interface PrefillState {
  prefill: Partial<RequestFormValues>;
  /** Set by "Renew" on My bindings: the grant in effect that the new request renews. */
  renewing?: RenewalPrefill;
}

interface OpenForm {
  key: number;
  initial: Partial<RequestFormValues>;
  renewing?: RenewalPrefill;
}

function renewingOf(state: unknown): RenewalPrefill | undefined {
  if (state && typeof state === 'object' && 'renewing' in state) {
    const renewing = (state as PrefillState).renewing;
    if (renewing && typeof renewing.expiresAt === 'string') return { expiresAt: renewing.expiresAt };
  }
  return undefined;
}

function prefillOf(state: unknown): Partial<RequestFormValues> | null {
  if (state && typeof state === 'object' && 'prefill' in state) {
    const prefill = (state as PrefillState).prefill;
    if (prefill && typeof prefill === 'object') return prefill;
  }
  return null;
}

/**
 * Requester home: what I have and what is pending (my access in effect, with its last day and "Renew" when the end
 * is near; my open requests with who acts next), then the catalog of targets and the request form.
 */
export function HomePage() {
  const location = useLocation();
  const navigate = useNavigate();
  const me = useOptionalMe();
  const [targets, reload] = useLoad(['targets'], (signal) => getTargets(signal));
  // Each opened form has its own key: a new key mounts a new form with a new operationId.
  const [form, setForm] = useState<OpenForm | null>(() => {
    const prefill = prefillOf(location.state);
    return prefill ? { key: 1, initial: prefill, renewing: renewingOf(location.state) } : null;
  });
  const nextKey = useRef(2);
  const formRef = useRef<HTMLDivElement>(null);
  const lastState = useRef(location.state);

  useEffect(() => {
    if (location.state === lastState.current) return;
    lastState.current = location.state;
    const prefill = prefillOf(location.state);
    if (prefill) setForm({ key: nextKey.current++, initial: prefill, renewing: renewingOf(location.state) });
  }, [location.state]);

  const openForm = (initial: Partial<RequestFormValues> = {}) => {
    setForm({ key: nextKey.current++, initial });
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('select, input, textarea')?.focus());
  };

  const list: Target[] = targets.status === 'ok' && Array.isArray(targets.data) ? targets.data : [];

  return (
    <div className="home">
      <PageHeading>Home</PageHeading>
      {me && !me.verified ? (
        <p className="notice notice-error" data-testid="unverified-notice">
          Your identity could not be verified with the company directory, so you cannot submit or follow requests.
          Contact the maintainers if this is wrong.
        </p>
      ) : null}
      {me && me.verified && !me.submissionsOpen ? (
        <p className="notice notice-warning" data-testid="submissions-closed" role="status">
          Submissions are closed right now. You can prepare a request, but it will be refused until they open again.
        </p>
      ) : null}
      {me && me.verified ? (
        <div className="home-mine">
          <MyAccess />
          <OpenRequests />
        </div>
      ) : null}
      <h2 className="home-request-title">Request a change</h2>
      <div className="home-grid">
        <section className="panel catalog" aria-labelledby="catalog-title" data-testid="catalog">
          <h2 id="catalog-title">Catalog</h2>
          {targets.status === 'loading' ? <Loading label="Loading the catalog…" /> : null}
          {targets.status === 'error' ? (
            <ErrorNotice error={targets.error} title="Could not load the catalog." onRetry={reload} />
          ) : null}
          {targets.status === 'ok' && list.length === 0 ? <p className="muted">The catalog is empty.</p> : null}
          <ul className="target-list">
            {list.map((t) => (
              <li key={t.key} className="target" data-testid="catalog-target" data-target={t.key}>
                <div>
                  <p className="target-name">
                    {t.name || t.key}
                    {t.batchable ? <span className="tag">batched</span> : null}
                  </p>
                  <p className="muted">{t.description}</p>
                  <p className="muted small">
                    <code>{t.key}</code>
                  </p>
                </div>
                <button
                  type="button"
                  className="button-secondary"
                  onClick={() => openForm({ targetKey: t.key })}
                  aria-label={`Request ${t.name || t.key}`}
                >
                  Request
                </button>
              </li>
            ))}
          </ul>
        </section>

        <div className="panel form-panel" ref={formRef}>
          {form ? (
            <RequestForm
              key={form.key}
              targets={list}
              initial={form.initial}
              renewing={form.renewing}
              onNewRequest={() => openForm()}
              onAccepted={(id) => void navigate(`/requests/${encodeURIComponent(id)}`)}
            />
          ) : (
            <div className="form-placeholder">
              <p>Pick a target from the catalog, or start an empty request.</p>
              <button type="button" onClick={() => openForm()} data-testid="open-request-form">
                New request
              </button>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
