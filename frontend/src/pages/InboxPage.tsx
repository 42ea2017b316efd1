import { useState } from 'react';
import type { ApiFailure } from '../api/client';
import { decide, getInbox } from '../api/endpoints';
import type { Decision, InboxItem } from '../api/types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Fact } from '../components/Fact';
import { Loading } from '../components/Loading';
import { PageHeading } from '../components/PageHeading';
import { formatDateTime } from '../logic/format';
import { useLoad } from '../logic/hooks';

interface Outcome {
  ticket: string;
  decision: Decision;
  message: string;
  code: string;
}

/** Sandbox only: the approval system simulator's inbox. A decision sends the signed callback. */
export default function InboxPage() {
  const [state, reload] = useLoad(['inbox'], (signal) => getInbox(signal));
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<ApiFailure | null>(null);
  const [decided, setDecided] = useState<ReadonlySet<string>>(new Set());

  async function send(item: InboxItem, decision: Decision) {
    setBusy(item.ticket);
    setError(null);
    setOutcome(null);
    const result = await decide(item.ticket, decision);
    setBusy(null);
    if (result.ok) {
      setDecided((d) => new Set(d).add(item.ticket));
      setOutcome({ ticket: item.ticket, decision, message: result.message, code: result.code });
      reload();
    } else {
      setError(result);
    }
  }

  const items = (state.status === 'ok' && Array.isArray(state.data) ? state.data : []).filter((i) => !decided.has(i.ticket));

  return (
    <section className="panel" data-testid="inbox-page">
      <PageHeading>Approval inbox</PageHeading>
      <p className="muted">Sandbox: the approval system simulator. Your decision is sent back to Changeflow as a signed callback.</p>
      <div className="toolbar">
        <button type="button" className="button-secondary" onClick={reload}>
          Reload
        </button>
      </div>
      <div role="status" aria-live="polite" data-testid="inbox-status">
        {outcome ? (
          <p className="notice notice-success">
            {outcome.decision === 'APPROVE' ? 'Approved' : 'Rejected'} ticket <code>{outcome.ticket}</code>.{' '}
            {outcome.message} <span className="muted">({outcome.code})</span>
          </p>
        ) : null}
      </div>
      {error ? <ErrorNotice error={error} title="The decision was not sent." /> : null}
      {state.status === 'loading' ? <Loading /> : null}
      {state.status === 'error' ? <ErrorNotice error={state.error} title="Could not load the inbox." onRetry={reload} /> : null}
      {state.status === 'ok' && items.length === 0 ? <p className="muted">No pending approvals.</p> : null}
      <ul className="cards">
        {items.map((item) => (
          <li key={item.ticket} className="card" data-testid="inbox-item" data-ticket={item.ticket} data-operation-id={item.operationId}>
            <p className="card-title">
              <code>{item.target}</code> for {item.subject}
            </p>
            <dl className="facts compact">
              <Fact term="Requested by">{item.requester}</Fact>
              <Fact term="Reason">{item.reason}</Fact>
              <Fact term="Received">{formatDateTime(item.createdAt)}</Fact>
              <Fact term="Ticket">
                <code>{item.ticket}</code>
              </Fact>
            </dl>
            <div className="card-actions">
              <button type="button" disabled={busy !== null} onClick={() => void send(item, 'APPROVE')} data-testid="approve">
                Approve
              </button>
              <button
                type="button"
                className="button-danger"
                disabled={busy !== null}
                onClick={() => void send(item, 'REJECT')}
                data-testid="reject"
              >
                Reject
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
