import { describe, expect, it } from 'vitest';
import { entry, view } from '../test/fixtures';
import { buildTimeline, milestoneOrder, statusLabel, statusTone, type Milestone } from './timeline';

const states = (ms: Milestone[]) => ms.map((m) => `${m.key}:${m.state}`);

describe('buildTimeline', () => {
  it('approve-first, waiting for approval: the rest is expected', () => {
    expect(states(buildTimeline(view()))).toEqual([
      'SUBMITTED:done',
      'APPROVAL_SENT:done',
      'APPROVED:current',
      'MR_READY:upcoming',
      'MERGED:upcoming',
      'IN_EFFECT:upcoming',
    ]);
  });

  it('create-first puts the merge request before the approval', () => {
    expect(milestoneOrder(true, false)).toEqual(['SUBMITTED', 'MR_READY', 'APPROVAL_SENT', 'APPROVED', 'MERGED', 'IN_EFFECT']);
    const ms = buildTimeline(view({ stepOrder: 'CREATE_FIRST', status: 'MR_CREATING', timeline: [entry('SUBMITTED_CREATE_FIRST', 'MR_CREATING')] }));
    expect(states(ms).slice(0, 3)).toEqual(['SUBMITTED:done', 'MR_READY:current', 'APPROVAL_SENT:upcoming']);
  });

  it('in effect: every step done', () => {
    const ms = buildTimeline(view({ status: 'VALIDATED', timeline: [entry('DEPLOYED', 'VALIDATED', '2026-01-02T00:00:00Z')] }));
    expect(ms.every((m) => m.state === 'done')).toBe(true);
    expect(ms.at(-1)).toMatchObject({ key: 'IN_EFFECT', at: '2026-01-02T00:00:00Z' });
  });

  it('a batchable path waits for a batch round instead of its own merge request', () => {
    const ms = buildTimeline(view({ status: 'BATCH_WAITING', timeline: [entry('APPROVAL_GRANTED_BATCH', 'BATCH_WAITING')] }));
    expect(states(ms)).toEqual([
      'SUBMITTED:done',
      'APPROVAL_SENT:done',
      'APPROVED:done',
      'BATCH_CLAIMED:current',
      'MERGED:upcoming',
      'IN_EFFECT:upcoming',
    ]);
  });

  it('a failure marks the step where it stopped, with its detail; later steps stay expected', () => {
    const ms = buildTimeline(
      view({
        status: 'HANDLE_FAILED',
        timeline: [entry('APPROVAL_GRANTED_CREATE', 'MR_CREATING'), entry('MR_PIPELINE_PASSED', 'MR_CREATED'), entry('HANDLE_PIPELINE_FAILED', 'HANDLE_FAILED', 'x', 'Pipeline failed')],
      }),
    );
    const merged = ms.find((m) => m.key === 'MERGED');
    expect(merged).toMatchObject({ state: 'failed', detail: 'Pipeline failed' });
    expect(ms.find((m) => m.key === 'IN_EFFECT')?.state).toBe('upcoming');
  });

  it('a rejection ends at the approval; the rest will not happen', () => {
    const ms = buildTimeline(view({ status: 'REJECTED', timeline: [entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING'), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT'), entry('APPROVAL_REJECTED', 'REJECTED')] }));
    expect(states(ms)).toEqual(['SUBMITTED:done', 'APPROVAL_SENT:done', 'APPROVED:failed', 'MR_READY:skipped', 'MERGED:skipped', 'IN_EFFECT:skipped']);
    expect(ms[2]?.note).toMatch(/rejected/i);
  });

  it('a request the person it was asked for superseded with their own says so where it ended', () => {
    const ms = buildTimeline(
      view({
        status: null,
        timeline: [entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING'), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT'), entry('SUPERSEDED_BY_SUBJECT', 'CLOSED')],
      }),
    );
    expect(ms.map((m) => m.note).filter((n) => n)).toEqual(['The person this was asked for asked for it themselves; their own request replaced this one.']);
  });

  it('works from the status alone when the timeline is empty', () => {
    expect(states(buildTimeline(view({ status: 'MERGED', timeline: [] }))).slice(-2)).toEqual(['MERGED:done', 'IN_EFFECT:current']);
  });
});

describe('a removal that needs approval (issue 18, removals: approval)', () => {
  it('labels REMOVAL_REJECTED as still in effect, a state a person acts on', () => {
    expect(statusLabel('REMOVAL_REJECTED')).toBe('Removal not approved, still in effect');
    expect(statusTone('REMOVAL_REJECTED')).toBe('failure');
  });
});
