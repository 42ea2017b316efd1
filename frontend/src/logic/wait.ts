import type { RequestWait } from '../api/types';

/** "45 s", "12 min", "2 h", "2 h 5 min", "3 days": a span as a person reads it. */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  return `${Math.round(hours / 24)} days`;
}

function every(seconds: number): string {
  if (seconds === 60) return 'every minute';
  if (seconds === 3600) return 'every hour';
  return `every ${formatSpan(seconds * 1000)}`;
}

function time(value: string, now: Date): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function ms(value: string | null | undefined): number | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : t;
}

const OWNERS: Record<string, string> = {
  SERVICE: 'this service',
  APPROVER: 'the approver',
  PIPELINE: 'the pipeline',
  DEPLOY_PIPELINE: 'the deployment pipeline',
  MAINTAINERS: 'a person (maintainers or an operator)',
};

/** Who makes the next move (the request view's `waitingFor`, the convergence table's owner), for people. */
export function ownerLabel(owner: string): string {
  return OWNERS[owner] ?? owner;
}

/** "Next: the approver, until 14:05." or "Next: this service." */
export function nextMove(wait: RequestWait, now: Date = new Date()): string {
  const until = wait.deadline ? `, until ${time(wait.deadline, now)}` : '';
  return `Next: ${ownerLabel(wait.waitingFor)}${until}.`;
}

const SYSTEMS: Record<string, string> = { gitlab: 'GitLab', approval: 'The approval system' };

/**
 * The wait in plain words, e.g. "Waiting for the pipeline for 12 min; checked every 10 min; a person is asked
 * after 24 h." or "GitLab is failing; next attempt at 14:05, giving up at 14:50."
 */
export function describeWait(wait: RequestWait, now: Date = new Date()): string {
  const since = ms(wait.since);
  const deadline = ms(wait.deadline);
  const forHowLong = since === null ? '' : ` for ${formatSpan(now.getTime() - since)}`;
  const next = wait.nextAttemptAt ? time(wait.nextAttemptAt, now) : null;
  const until = wait.deadline ? time(wait.deadline, now) : null;
  switch (wait.waitingFor) {
    case 'PIPELINE': {
      const parts = [`Waiting for the pipeline${forHowLong}`];
      if (wait.checkedEverySeconds) parts.push(`checked ${every(wait.checkedEverySeconds)}`);
      if (next) parts.push(`next look at ${next}`);
      if (deadline !== null && since !== null) parts.push(`a person is asked after ${formatSpan(deadline - since)}`);
      return `${parts.join('; ')}.`;
    }
    case 'APPROVER':
      return `Waiting for the approver's decision${forHowLong}${until ? `; until ${until}` : ''}.`;
    case 'DEPLOY_PIPELINE':
      return `Merged; waiting${forHowLong} for the deployment to report the change in effect${
        until ? `; a person is asked at ${until}` : ''
      }.`;
    case 'MAINTAINERS':
      return 'Nothing runs on its own any more: a person has to act (please contact the maintainers).';
    default: {
      if (wait.failing) {
        const who = SYSTEMS[wait.failing];
        const head = who ? `${who} is failing` : 'The last attempt failed; it is retried automatically';
        const parts = [next ? `next attempt at ${next}` : null, until ? `giving up at ${until}` : null].filter(Boolean);
        return `${head}${parts.length > 0 ? `; ${parts.join(', ')}` : ''}.`;
      }
      return `Being processed${forHowLong}${next ? `; next step at ${next}` : ''}.`;
    }
  }
}
