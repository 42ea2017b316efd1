/**
 * How long a request spent in each state, from its timeline: consecutive events that leave the state unchanged
 * belong to one stretch; the last stretch lasts until now unless the request has finished.
 */
import type { RequestView } from '../api/types';
import { isFinished } from './polling';
import { statusLabel } from './timeline';

export interface StepTime {
  status: string;
  label: string;
  from: string;
  /** When the request left this state; null for the state it is in now. */
  to: string | null;
  /** Time spent, up to `now` for the current state; null for a final state (it is not waited in). */
  ms: number | null;
  current: boolean;
}

function time(value: string): number | null {
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : t;
}

export function stepTimes(view: Pick<RequestView, 'status' | 'timeline'>, now: Date = new Date()): StepTime[] {
  const entries = [...(view.timeline ?? [])]
    .filter((e) => e.status !== null && time(e.at) !== null)
    .sort((a, b) => (time(a.at) ?? 0) - (time(b.at) ?? 0));
  const stretches: { status: string; from: string }[] = [];
  for (const e of entries) {
    const last = stretches[stretches.length - 1];
    if (!last || last.status !== e.status) stretches.push({ status: e.status as string, from: e.at });
  }
  const finished = isFinished(view);
  return stretches.map((s, i): StepTime => {
    const next = stretches[i + 1];
    const current = next === undefined;
    const start = time(s.from) ?? 0;
    if (!current) {
      return { status: s.status, label: statusLabel(s.status), from: s.from, to: next.from, ms: (time(next.from) ?? start) - start, current };
    }
    return {
      status: s.status,
      label: statusLabel(s.status),
      from: s.from,
      to: null,
      ms: finished ? null : Math.max(0, now.getTime() - start),
      current: !finished,
    };
  });
}
