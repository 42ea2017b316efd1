/**
 * The step timeline of a request, from approval to "in effect": the milestones already reached
 * (from data.timeline and the current status) followed by the phases still expected for its step
 * order (approve first or create first) and path (single merge request or batch).
 */
import type { RequestView, TimelineEntry } from '../api/types';

export type MilestoneKey = 'SUBMITTED' | 'APPROVAL_SENT' | 'APPROVED' | 'MR_READY' | 'BATCH_CLAIMED' | 'MERGED' | 'IN_EFFECT';

export type MilestoneState = 'done' | 'current' | 'failed' | 'upcoming' | 'skipped';

export interface Milestone {
  key: MilestoneKey;
  label: string;
  state: MilestoneState;
  /** When it was reached (done) or when the latest activity on it happened (current/failed). */
  at: string | null;
  /** Latest detail from the server for this milestone (e.g. the failure reason). */
  detail: string | null;
  /** What is going on right now at the current or failed milestone, person-readable. */
  note: string | null;
}

export const MILESTONE_LABELS: Record<MilestoneKey, string> = {
  SUBMITTED: 'Submitted',
  APPROVAL_SENT: 'Sent for approval',
  APPROVED: 'Approved',
  MR_READY: 'Merge request created, checks passed',
  BATCH_CLAIMED: 'Picked up by a batch round',
  MERGED: 'Merged',
  IN_EFFECT: 'In effect',
};

/** Events that complete a milestone. */
const COMPLETING: Record<string, MilestoneKey> = {
  SUBMITTED_APPROVE_FIRST: 'SUBMITTED',
  SUBMITTED_CREATE_FIRST: 'SUBMITTED',
  APPROVAL_SUBMITTED: 'APPROVAL_SENT',
  APPROVAL_GRANTED_CREATE: 'APPROVED',
  APPROVAL_GRANTED_BATCH: 'APPROVED',
  APPROVAL_GRANTED_MERGE: 'APPROVED',
  MR_PIPELINE_PASSED: 'MR_READY',
  BATCH_CLAIMED: 'BATCH_CLAIMED',
  MERGED: 'MERGED',
  BATCH_MERGED: 'MERGED',
  DEPLOYED: 'IN_EFFECT',
  EXPIRY_DUE: 'SUBMITTED',
  REVOCATION_REQUESTED: 'SUBMITTED',
  EXPIRY_DUE_FOR_APPROVAL: 'SUBMITTED',
  REVOCATION_FOR_APPROVAL: 'SUBMITTED',
};

/** The events that open a removal on a target whose removals need the approval system (removals: approval). */
const REMOVAL_ASKING_EVENTS = new Set(['EXPIRY_DUE_FOR_APPROVAL', 'REVOCATION_FOR_APPROVAL']);

/** Whether this removal asks the approver first (its opening event says so; so does a status of the approval). */
export function removalAsksApproval(view: Pick<RequestView, 'status' | 'timeline'>): boolean {
  if ((view.timeline ?? []).some((e) => REMOVAL_ASKING_EVENTS.has(e.event))) return true;
  return ['APPROVAL_SENDING', 'APPROVAL_SENT', 'APPROVAL_FAILED', 'REMOVAL_REJECTED'].includes(view.status ?? '');
}

/** A removal's milestones are named for what they do (it asks no approval and ends with the line gone). */
const REMOVAL_LABELS: Partial<Record<MilestoneKey, string>> = {
  SUBMITTED: 'Removal opened',
  BATCH_CLAIMED: 'Picked up by the removal round',
  IN_EFFECT: 'Removed, confirmed by the deployment',
};

function isRemovalView(view: Pick<RequestView, 'kind'>): boolean {
  return view.kind === 'EXPIRY' || view.kind === 'REVOCATION';
}

const BATCH_EVENTS = new Set([
  'APPROVAL_GRANTED_BATCH',
  'BATCH_CLAIMED',
  'BATCH_REQUEUED',
  'BATCH_MERGED',
  'BATCH_BLOCKED',
  'BATCH_CULPRIT_FAILED',
  'BATCH_GAVE_UP',
  'BATCH_READMITTED',
]);

const BATCH_STATUSES = new Set(['BATCH_WAITING', 'BATCHED']);

/** Person-readable labels of the external states. */
export const STATUS_LABELS: Record<string, string> = {
  APPROVAL_SENDING: 'Sending for approval',
  APPROVAL_SENT: 'Waiting for approval',
  APPROVAL_FAILED: 'Could not be sent for approval',
  MR_CREATING: 'Creating the merge request',
  MR_CREATED: 'Merge request ready',
  MERGING: 'Merging',
  BATCH_WAITING: 'Waiting for the next batch round',
  BATCHED: 'Being merged in a batch',
  MERGED: 'Merged, rolling out',
  VALIDATED: 'In effect',
  CREATE_FAILED: 'Creating the merge request failed',
  HANDLE_FAILED: 'Merging failed',
  REJECTED: 'Rejected',
  CLOSED: 'Closed',
  DEPLOY_UNCONFIRMED: 'Merged, deployment not confirmed',
  DEPLOY_FAILED: 'Merged, deployment failed',
  EXPIRING: 'Expired, line being removed',
  REVOKING: 'Given up or revoked, line being removed',
  EXPIRED: 'Expired',
  REVOKED: 'Given up or revoked',
  REMOVAL_REJECTED: 'Removal not approved, still in effect',
};

export function statusLabel(status: string | null): string {
  if (status === null) return 'Replaced by a newer request';
  return STATUS_LABELS[status] ?? status.replace(/_/g, ' ').toLowerCase();
}

export type StatusTone = 'progress' | 'success' | 'failure' | 'ended';

export function statusTone(status: string | null): StatusTone {
  if (status === 'VALIDATED') return 'success';
  if (status === 'APPROVAL_FAILED' || status === 'CREATE_FAILED' || status === 'HANDLE_FAILED') return 'failure';
  if (status === 'DEPLOY_UNCONFIRMED' || status === 'DEPLOY_FAILED' || status === 'REMOVAL_REJECTED') return 'failure';
  if (status === null || status === 'REJECTED' || status === 'CLOSED' || status === 'EXPIRED' || status === 'REVOKED') {
    return 'ended';
  }
  return 'progress';
}

export function usesBatch(view: Pick<RequestView, 'status' | 'batchId' | 'timeline'>, targetBatchable?: boolean): boolean {
  if (view.batchId !== null && view.batchId !== undefined) return true;
  if (view.status !== null && BATCH_STATUSES.has(view.status)) return true;
  if ((view.timeline ?? []).some((e) => BATCH_EVENTS.has(e.event))) return true;
  return targetBatchable === true;
}

export function milestoneOrder(createFirst: boolean, batch: boolean): MilestoneKey[] {
  const order: MilestoneKey[] = createFirst
    ? ['SUBMITTED', 'MR_READY', 'APPROVAL_SENT', 'APPROVED']
    : ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', batch ? 'BATCH_CLAIMED' : 'MR_READY'];
  if (createFirst && batch) order.push('BATCH_CLAIMED');
  order.push('MERGED', 'IN_EFFECT');
  return order;
}

/** Milestones the current status implies are behind us (covers an empty or partial timeline). */
function impliedByStatus(status: string | null, createFirst: boolean): MilestoneKey[] {
  const cf = (...keys: MilestoneKey[]) => (createFirst ? keys : []);
  const af = (...keys: MilestoneKey[]) => (createFirst ? [] : keys);
  switch (status) {
    case 'APPROVAL_SENDING':
    case 'APPROVAL_FAILED':
      return ['SUBMITTED', ...cf('MR_READY')];
    case 'APPROVAL_SENT':
      return ['SUBMITTED', 'APPROVAL_SENT', ...cf('MR_READY')];
    case 'MR_CREATING':
    case 'CREATE_FAILED':
      return ['SUBMITTED', ...af('APPROVAL_SENT', 'APPROVED')];
    case 'MR_CREATED':
      return ['SUBMITTED', 'MR_READY', ...af('APPROVAL_SENT', 'APPROVED')];
    case 'MERGING':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'MR_READY'];
    case 'HANDLE_FAILED':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'MR_READY'];
    case 'BATCH_WAITING':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', ...cf('MR_READY')];
    case 'BATCHED':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'BATCH_CLAIMED', ...cf('MR_READY')];
    case 'MERGED':
    case 'DEPLOY_UNCONFIRMED':
    case 'DEPLOY_FAILED':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'MR_READY', 'BATCH_CLAIMED', 'MERGED'];
    case 'VALIDATED':
      return ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'MR_READY', 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT'];
    default:
      return status === null ? [] : ['SUBMITTED'];
  }
}

/** What the request is doing now at its current milestone. */
const CURRENT_NOTES: Record<string, string> = {
  APPROVAL_SENDING: 'Sending the request to the approval system.',
  APPROVAL_SENT: 'Waiting for an approver to decide.',
  MR_CREATING: 'Creating the merge request and running its checks.',
  MR_CREATED: 'The merge request is ready.',
  MERGING: 'The bots are approving and merging the merge request.',
  BATCH_WAITING: 'Waiting for the next batch round.',
  BATCHED: 'The batch merge request is being merged.',
  EXPIRING: 'Waiting for the next removal round of the target\u2019s grant file.',
  REVOKING: 'Waiting for the next removal round of the target\u2019s grant file.',
  MERGED: 'Merged; waiting for the deployment to confirm the change is live.',
};

const ENDED_NOTES: Record<string, string> = {
  REJECTED: 'The request was rejected or withdrawn.',
  CLOSED: 'The request was closed without taking effect.',
  APPROVAL_FAILED: 'The request could not be handed to the approval system.',
  CREATE_FAILED: 'Creating the merge request failed.',
  HANDLE_FAILED: 'Approving or merging the merge request failed.',
  REMOVAL_REJECTED: 'The removal was not approved: the grant stays in effect and its line stays in the file.',
};

function endedNote(status: string | null, entries: TimelineEntry[]): string | null {
  // issue 37: the person it was asked for asked for it themselves (its status is then null: their request holds the row)
  if (entries.some((e) => e.event === 'SUPERSEDED_BY_SUBJECT'))
    return 'The person this was asked for asked for it themselves; their own request replaced this one.';
  if (status === null) return 'A newer request for the same subject and target replaced this one.';
  if (status === 'REMOVAL_REJECTED') return ENDED_NOTES.REMOVAL_REJECTED ?? null;
  if (entries.some((e) => e.event === 'APPROVAL_REJECTED')) return 'The approver rejected the request.';
  if (entries.some((e) => e.event === 'APPROVAL_WITHDRAWN')) return 'The request was withdrawn in the approval system.';
  return ENDED_NOTES[status] ?? null;
}

/** Milestones a removal's status implies are behind it (with the approval when it asked one). */
function removalImplied(status: string | null, asked: boolean): MilestoneKey[] {
  const approved: MilestoneKey[] = asked ? ['APPROVAL_SENT', 'APPROVED'] : [];
  switch (status) {
    case 'APPROVAL_SENT':
      return ['SUBMITTED', 'APPROVAL_SENT'];
    case 'BATCH_WAITING':
      return ['SUBMITTED', ...approved];
    case 'BATCHED':
      return ['SUBMITTED', ...approved, 'BATCH_CLAIMED'];
    case 'MERGED':
    case 'DEPLOY_UNCONFIRMED':
    case 'DEPLOY_FAILED':
      return ['SUBMITTED', ...approved, 'BATCH_CLAIMED', 'MERGED'];
    case 'EXPIRED':
    case 'REVOKED':
      return ['SUBMITTED', ...approved, 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT'];
    default:
      return status === null ? [] : ['SUBMITTED'];
  }
}

export function buildTimeline(view: RequestView, targetBatchable?: boolean): Milestone[] {
  const removal = isRemovalView(view);
  const createFirst = !removal && view.stepOrder === 'CREATE_FIRST';
  const batch = removal || usesBatch(view, targetBatchable);
  // a removal: opened, (on a target with removals: approval: sent for approval, approved,) picked up by its file's
  // removal round, merged, gone
  const asked = removal && removalAsksApproval(view);
  const order: MilestoneKey[] = removal
    ? asked
      ? ['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT']
      : ['SUBMITTED', 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT']
    : milestoneOrder(createFirst, batch);
  const entries: TimelineEntry[] = [...(view.timeline ?? [])];

  const reachedAt = new Map<MilestoneKey, string | null>();
  const detailOf = new Map<MilestoneKey, string | null>();
  for (const entry of entries) {
    const key = COMPLETING[entry.event];
    if (key) {
      reachedAt.set(key, entry.at);
      detailOf.set(key, entry.detail ?? null);
    }
  }
  for (const key of removal ? removalImplied(view.status, asked) : impliedByStatus(view.status, createFirst)) {
    if (!reachedAt.has(key)) reachedAt.set(key, null);
  }

  // Everything up to the furthest milestone reached is behind us; the next one is where it stands.
  let furthest = -1;
  order.forEach((key, index) => {
    if (reachedAt.has(key)) furthest = index;
  });
  const frontierIndex = furthest + 1 < order.length ? furthest + 1 : -1;
  const last = entries.length > 0 ? entries[entries.length - 1] : undefined;
  const status = view.status;
  const tone = statusTone(status);

  return order.map((key, index): Milestone => {
    const label = (removal ? REMOVAL_LABELS[key] : undefined) ?? MILESTONE_LABELS[key];
    const base = { key, label, detail: detailOf.get(key) ?? null, note: null };
    if (frontierIndex === -1 || index < frontierIndex) {
      return { ...base, state: 'done', at: reachedAt.get(key) ?? null };
    }
    if (index === frontierIndex) {
      const at = last?.at ?? null;
      const detail = last?.detail ?? null;
      if (tone === 'failure' || tone === 'ended') {
        return { ...base, state: 'failed', at, detail, note: endedNote(status, entries) };
      }
      return { ...base, state: 'current', at, detail, note: status ? (CURRENT_NOTES[status] ?? null) : null };
    }
    return { ...base, state: tone === 'ended' ? 'skipped' : 'upcoming', at: null };
  });
}
