import { beforeEach, describe, expect, it } from 'vitest';
import type { RequestView } from '../api/types';
import { envelope } from '../test/fetchMock';
import { entry, TARGETS, view } from '../test/fixtures';
import { click, flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { RequestPage } from './RequestPage';

const session = testSession();
let r: Rendered | null = null;

beforeEach(() => {
  window.history.replaceState(null, '', '/requests/rm-1');
});

const GRANT = 'aaaaaaaa-1111-4111-8111-111111111111';

function removal(overrides: Partial<RequestView>): RequestView {
  return view({
    operationId: 'rm-1',
    kind: 'REVOCATION',
    previousGrant: GRANT,
    requester: 'alice',
    reason: 'Given up by alice; the line is removed from the grant file.',
    expiresAt: '2026-12-04T17:00:00Z',
    status: 'REVOKING',
    step: 'BATCH_WAITING',
    hint: { code: 'KEEP_WAITING', message: 'Your request is being processed.' },
    removal: { cause: 'GIVEN_UP', by: 'alice' },
    timeline: [entry('REVOCATION_REQUESTED', 'REVOKING', '2026-12-02T09:00:00Z')],
    createdAt: '2026-12-02T09:00:00Z',
    ...overrides,
  });
}

async function show(answer: RequestView) {
  session.backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('OK', answer)));
  r = await session.render(<RequestPage operationId="rm-1" />);
  await flush();
  return r;
}

function text(id: string): string {
  return r!.byTestId(id).textContent ?? '';
}

describe('RequestPage of a removal (issue 18)', () => {
  it('a give-up says what is removed, by whom, and that the next removal round takes it without approval', async () => {
    await show(removal({}));
    expect(r!.container.querySelector('h1')?.textContent).toBe('Removal of access');
    const story = r!.byTestId('change-story');
    expect(story.dataset.kind).toBe('REVOCATION');
    expect(story.dataset.cause).toBe('GIVEN_UP');
    expect(text('story-what')).toContain('the line of alice in the grant file of db-prod-readonly');
    expect(text('story-why')).toMatch(/^Why: Given up by alice on /);
    expect(text('story-next')).toContain('next removal round');
    expect(text('story-next')).toContain('no approval is asked');
    expect(text('story-next')).toContain('the access stays in effect');
    // the grant it removes is one click away
    expect(r!.byTestId<HTMLAnchorElement>('previous-grant').getAttribute('href')).toBe(`/requests/${GRANT}`);
    await click(r!.byTestId('previous-grant'));
    expect(window.location.pathname).toBe(`/requests/${GRANT}`);
  });

  it('an operator\'s revocation names the operator', async () => {
    await show(removal({ requester: 'otto', removal: { cause: 'REVOKED', by: 'otto' } }));
    expect(text('story-why')).toMatch(/^Why: Revoked by the operator otto on /);
  });

  it('an expiry says when the grant expired; done, it says the access ended and can be applied for again', async () => {
    await show(
      removal({
        kind: 'EXPIRY',
        requester: 'system',
        removal: { cause: 'EXPIRED', by: 'system' },
        status: 'EXPIRED',
        step: 'CALLED_BACK',
        hint: { code: 'CAN_REAPPLY', message: 'You can apply again.' },
        timeline: [
          entry('EXPIRY_DUE', 'EXPIRING', '2026-12-04T17:01:00Z'),
          entry('BATCH_CLAIMED', 'BATCHED', '2026-12-04T17:02:00Z'),
          entry('BATCH_MERGED', 'MERGED', '2026-12-04T17:05:00Z'),
          entry('DEPLOYED', 'EXPIRED', '2026-12-04T17:09:00Z'),
        ],
      }),
    );
    expect(r!.container.querySelector('h1')?.textContent).toBe('Expiry of access');
    expect(r!.byTestId('change-story').dataset.cause).toBe('EXPIRED');
    expect(text('story-why')).toMatch(/^Why: The grant expired at /);
    expect(text('story-why')).toContain('2026');
    expect(text('story-next')).toBe('What happens next: Done: the line is gone and the access has ended. alice can apply for db-prod-readonly again.');
    // the timeline is a removal's: no approval milestones, every step done
    const steps = r!.allByTestId('timeline-step');
    expect(steps.map((s) => s.dataset.step)).toEqual(['SUBMITTED', 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT']);
    expect(steps.every((s) => s.dataset.state === 'done')).toBe(true);
    expect(steps[0]!.textContent).toContain('Removal opened');
    expect(steps[3]!.textContent).toContain('Removed, confirmed by the deployment');
  });

  it('a removal waiting for its round stands at the removal round, never at an approval', async () => {
    await show(removal({}));
    const current = r!.allByTestId('timeline-step').find((s) => s.dataset.state === 'current');
    expect(current?.dataset.step).toBe('BATCH_CLAIMED');
    expect(current?.textContent).toContain('Waiting for the next removal round');
    expect(r!.allByTestId('timeline-step').map((s) => s.dataset.step)).not.toContain('APPROVAL_SENT');
  });

  it('a failed removal says the access is still in effect and that the operators start it again', async () => {
    await show(removal({ status: 'HANDLE_FAILED', step: 'BATCH_FAILED', hint: { code: 'CONTACT_MAINTAINERS', message: 'Contact the maintainers.' } }));
    expect(text('story-next')).toContain('the access is still in effect');
    expect(text('story-next')).toContain('start the removal again');
  });

  it('an unconfirmed removal says the access may still be live until an operator confirms it', async () => {
    await show(removal({ status: 'DEPLOY_UNCONFIRMED', step: 'DEPLOY_UNCONFIRMED' }));
    expect(text('story-next')).toContain('may still be live');
  });

  it('a removal that needs approval (removals: approval) waits for the approver, then for its removal round', async () => {
    const asked = [entry('EXPIRY_DUE_FOR_APPROVAL', 'APPROVAL_SENDING', '2026-12-02T09:00:00Z'), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT', '2026-12-02T09:00:01Z')];
    await show(removal({ kind: 'EXPIRY', removal: { cause: 'EXPIRED', by: 'system' }, status: 'APPROVAL_SENT', step: 'APPROVAL_SUBMITTED', timeline: asked }));
    expect(text('story-next')).toContain('an approver decides first');
    const steps = r!.allByTestId('timeline-step');
    expect(steps.map((s) => s.dataset.step)).toEqual(['SUBMITTED', 'APPROVAL_SENT', 'APPROVED', 'BATCH_CLAIMED', 'MERGED', 'IN_EFFECT']);
    expect(steps.find((s) => s.dataset.state === 'current')?.dataset.step).toBe('APPROVED');
    await r!.unmount();
    await show(removal({ kind: 'EXPIRY', status: 'BATCH_WAITING', step: 'BATCH_WAITING', timeline: [...asked, entry('APPROVAL_GRANTED_BATCH', 'BATCH_WAITING', '2026-12-02T10:00:00Z')] }));
    expect(text('story-next')).toMatch(/^What happens next: Approved: the next removal round/);
    expect(r!.allByTestId('timeline-step').find((s) => s.dataset.state === 'current')?.dataset.step).toBe('BATCH_CLAIMED');
  });

  it('a removal that was not approved says the access stays in effect and the maintainers decide', async () => {
    await show(removal({
      kind: 'EXPIRY',
      removal: { cause: 'EXPIRED', by: 'system' },
      status: 'REMOVAL_REJECTED',
      step: 'APPROVAL_REJECTED',
      hint: { code: 'CONTACT_MAINTAINERS', message: 'The removal of this grant was not approved.' },
      timeline: [entry('EXPIRY_DUE_FOR_APPROVAL', 'APPROVAL_SENDING', '2026-12-02T09:00:00Z'), entry('APPROVAL_SUBMITTED', 'APPROVAL_SENT', '2026-12-02T09:00:01Z'), entry('REMOVAL_NOT_APPROVED', 'REMOVAL_REJECTED', '2026-12-02T11:00:00Z')],
    }));
    expect(text('story-next')).toContain('not approved');
    expect(text('story-next')).toContain('the access stays in effect');
    const failed = r!.allByTestId('timeline-step').find((s) => s.dataset.state === 'failed');
    expect(failed?.dataset.step).toBe('APPROVED');
    expect(failed?.textContent).toContain('its line stays in the file');
  });

  it('a renewal names the grant it renews; a first grant has no story and keeps its plain title', async () => {
    await show(view({ kind: 'RENEWAL', previousGrant: GRANT, expiresAt: '2027-01-31' }));
    expect(r!.container.querySelector('h1')?.textContent).toBe('Renewal');
    expect(r!.byTestId('change-story').dataset.kind).toBe('RENEWAL');
    expect(text('story-what')).toContain('Renews the grant in effect of alice');
    expect(text('story-what')).toContain('the earlier grant stays in effect until its own expiry');
    await session.reset();

    await show(view({ kind: 'GRANT', previousGrant: null }));
    expect(r!.container.querySelector('h1')?.textContent).toBe('Request');
    expect(r!.queryByTestId('change-story')).toBeNull();
  });
});
