import type { RequestView, Target, TimelineEntry } from '../api/types';

export const TARGETS: Target[] = [
  { key: 'db-prod-readonly', name: 'Production DB (read-only)', description: 'Read access to the production database.', batchable: false, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true },
  { key: 'wiki-editors', name: 'Wiki editors', description: 'Edit the team wiki.', batchable: true, maxDuration: null, defaultDuration: null, allowsNever: true, allowsDurations: true },
];

export function entry(event: string, status: string | null, at = '2026-01-01T10:00:00Z', detail: string | null = null): TimelineEntry {
  return { event, step: event, status, at, detail };
}

export function view(overrides: Partial<RequestView> = {}): RequestView {
  return {
    operationId: 'op-1',
    targetKey: 'db-prod-readonly',
    subjectId: 'alice',
    requester: 'alice',
    reason: 'On-call',
    expiresAt: null,
    stepOrder: 'APPROVE_FIRST',
    status: 'APPROVAL_SENT',
    step: 'APPROVAL_SUBMITTED',
    stepCode: 10402,
    hint: { code: 'NONE', message: 'Your request is being processed.' },
    detail: null,
    mergeRequest: null,
    batchId: null,
    timeline: [entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING'), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT')],
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:01Z',
    kind: 'GRANT',
    previousGrant: null,
    duration: null,
    ...overrides,
  };
}
