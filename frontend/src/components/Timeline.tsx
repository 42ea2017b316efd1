import type { Milestone } from '../logic/timeline';
import { formatDateTime } from '../logic/format';

const STATE_TEXT: Record<Milestone['state'], string> = {
  done: 'done',
  current: 'in progress',
  failed: 'stopped here',
  upcoming: 'expected',
  skipped: 'will not happen',
};

export function Timeline({ milestones }: { milestones: Milestone[] }) {
  return (
    <ol className="timeline" data-testid="timeline" aria-label="Progress of the request">
      {milestones.map((m) => (
        <li
          key={m.key}
          className={`timeline-step step-${m.state}`}
          data-testid="timeline-step"
          data-step={m.key}
          data-state={m.state}
          aria-current={m.state === 'current' || m.state === 'failed' ? 'step' : undefined}
        >
          <span className="timeline-marker" aria-hidden="true" />
          <div className="timeline-body">
            <p className="timeline-label">
              {m.label} <span className="visually-hidden">({STATE_TEXT[m.state]})</span>
              <span className="timeline-state" aria-hidden="true">
                {STATE_TEXT[m.state]}
              </span>
            </p>
            {m.at ? <p className="timeline-at">{formatDateTime(m.at)}</p> : null}
            {m.note ? <p className="timeline-note">{m.note}</p> : null}
            {m.detail && (m.state === 'failed' || m.state === 'current') ? (
              <p className="timeline-detail">{m.detail}</p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
