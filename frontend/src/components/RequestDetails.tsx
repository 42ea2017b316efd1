import { describeDuration } from '../logic/durations';
import type { ReactNode } from 'react';
import type { RequestView } from '../api/types';
import { formatDate, formatDateTime } from '../logic/format';
import { safeHttpUrl } from '../logic/safeUrl';
import { buildTimeline, statusLabel } from '../logic/timeline';
import { describeWait, nextMove } from '../logic/wait';
import { ChangeKindStory } from './ChangeKindStory';
import { DataTable } from './DataTable';
import { Fact } from './Fact';
import { HintBox } from './HintBox';
import { StatusBadge } from './StatusBadge';
import { StepTimes } from './StepTimes';
import { Timeline } from './Timeline';

export function MergeRequestLink({ view }: { view: Pick<RequestView, 'mergeRequest'> }) {
  const mr = view.mergeRequest;
  if (!mr) return <span className="muted">Not created yet</span>;
  const href = safeHttpUrl(mr.webUrl);
  const text = `${mr.project}!${mr.iid}`;
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer" data-testid="mr-link">
      {text} <span className="visually-hidden">(opens in a new tab)</span>
    </a>
  ) : (
    <span data-testid="mr-link">{text}</span>
  );
}

export interface RequestDetailsProps {
  view: RequestView;
  /** Shown next to the status (the requester page puts its live-update state there). */
  statusExtra?: ReactNode;
  onApplyAgain?: () => void;
  targetBatchable?: boolean;
  /** Where the grant a renewal or removal names is shown; without it the reference is shown as text. */
  grantHref?: (operationId: string) => string;
}

/** Status, hint, merge request and timeline of one request (requester and operator pages). */
export function RequestDetails({ view, onApplyAgain, targetBatchable, statusExtra, grantHref }: RequestDetailsProps) {
  const timeline = view.timeline ?? [];
  return (
    <div className="request-details">
      <div className="status-row">
        <StatusBadge status={view.status} testId="request-status" />
        {view.step ? (
          <span className="muted" data-testid="request-step">
            Step: <code>{view.step}</code>
            {view.stepCode !== null && view.stepCode !== undefined ? <> ({view.stepCode})</> : null}
          </span>
        ) : null}
        {statusExtra}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="status-announcement">
        Status: {statusLabel(view.status)}
      </p>

      <ChangeKindStory view={view} grantHref={grantHref} />
      <HintBox hint={view.hint} onApplyAgain={onApplyAgain} />
      {view.waiting ? (
        <>
          <p className="wait" data-testid="request-next" data-waiting-for={view.waiting.waitingFor}>
            <strong>{nextMove(view.waiting)}</strong>
          </p>
          <p className="wait" data-testid="request-wait" data-waiting-for={view.waiting.waitingFor}>
            {describeWait(view.waiting)}
          </p>
        </>
      ) : null}
      <StepTimes view={view} />
      {view.detail ? (
        <p className="muted" data-testid="request-detail">
          Last note: {view.detail}
        </p>
      ) : null}

      <dl className="facts">
        <Fact term="Target">
          <code>{view.targetKey}</code>
        </Fact>
        <Fact term="Subject">{view.subjectId}</Fact>
        <Fact term="Requested by">{view.requester}</Fact>
        <Fact term="Reason">{view.reason}</Fact>
        {view.duration ? (
          <Fact term="Asked for" testId="asked-duration">
            {describeDuration(view.duration)}, counted from when the approved change is written
          </Fact>
        ) : null}
        <Fact term="Expires" testId="expires">
          {view.expiresAt
            ? formatDate(view.expiresAt)
            : view.duration
              ? 'Fixed when the approved change is written'
              : 'Never'}
        </Fact>
        <Fact term="Merge request">
          <MergeRequestLink view={view} />
        </Fact>
        {view.batchId !== null && view.batchId !== undefined ? (
          <Fact term="Batch" testId="batch-id">{String(view.batchId)}</Fact>
        ) : null}
        <Fact term="Submitted">{formatDateTime(view.createdAt)}</Fact>
        <Fact term="Last change">{formatDateTime(view.updatedAt)}</Fact>
      </dl>

      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Progress</h2>
        <Timeline milestones={buildTimeline(view, targetBatchable)} />
      </section>

      {timeline.length > 0 ? (
        <details className="events">
          <summary>All events ({timeline.length})</summary>
          <DataTable columns={['When', 'Event', 'State', 'Detail']} testId="events">
            {timeline.map((e, i) => (
              <tr key={`${e.event}-${e.at}-${i}`}>
                <td>{formatDateTime(e.at)}</td>
                <td>
                  <code>{e.event}</code>
                </td>
                <td>
                  {e.status ?? '—'}
                  {e.step ? (
                    <>
                      {' '}
                      / <code>{e.step}</code>
                    </>
                  ) : null}
                </td>
                <td>{e.detail ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        </details>
      ) : null}
    </div>
  );
}
