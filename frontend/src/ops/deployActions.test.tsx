import { describe, expect, it } from 'vitest';
import type { OperationDetail } from '../api/types';
import { pressAction } from '../test/actionResult';
import { waitForErrorCode } from '../test/errorNotice';
import { envelope, type Reply } from '../test/fetchMock';
import { entry, view } from '../test/fixtures';
import { click, flush, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { deployActionTone, offersDeployAction, OperationPage } from './OperationPage';

const { backend, render } = testSession({ at: '/console' });
let r: Rendered | null = null;

function deployDetail(status: string, allowedActions: string[]): OperationDetail {
  return {
    ...view({
      operationId: 'op-9',
      status,
      step: status,
      stepCode: 10310,
      hint: { code: 'CONTACT_MAINTAINERS', message: 'Your change is merged, but the deployment did not confirm it in time.' },
      detail: 'Merged, but no deploy report confirmed it within 2 h.',
      timeline: [entry('MERGED', 'MERGED'), entry('DEPLOY_DEADLINE_PASSED', status, '2026-01-01T12:00:05Z')],
    }),
    binding: null,
    history: [],
    audit: [],
    allowedActions,
    retriggerStep: null,
  };
}

/** The operation endpoint answers a `status` detail allowing `allowedActions`; every POST answers `posted`. */
function deployBackend(status: string, allowedActions: string[], posted: Reply) {
  return backend((c) => (c.method === 'POST' ? posted : envelope('OK', deployDetail(status, allowedActions))));
}

describe('deploy actions on the operation page', () => {
  it('offers confirm and mark-failed for an unconfirmed deploy, and confirming posts and reports CONFIRMED', async () => {
    const api = deployBackend(
      'DEPLOY_UNCONFIRMED',
      ['CONFIRM_DEPLOYED', 'MARK_DEPLOY_FAILED'],
      envelope('CONFIRMED', { operationId: 'op-9', status: 'VALIDATED' }, 200, { message: 'Confirmed in effect: the request is VALIDATED.' }),
    );
    r = await render(<OperationPage operationId="op-9" />);
    await flush();
    expect(r.queryByTestId('ops-mark-deploy-failed')).not.toBeNull();
    const result = await pressAction(r, 'ops-confirm-deployed', 'ops-action-result');
    expect(api.calls.find((c) => c.method === 'POST')?.url).toBe('/ops/operations/op-9/confirm-deployed');
    expect(result.dataset.code).toBe('CONFIRMED');
    expect(result.dataset.tone).toBe('success');
  });

  it('marking failed posts to mark-deploy-failed', async () => {
    const api = deployBackend(
      'MERGED',
      ['CONFIRM_DEPLOYED', 'MARK_DEPLOY_FAILED'],
      envelope('MARKED_FAILED', { operationId: 'op-9', status: 'DEPLOY_FAILED' }, 200, { message: 'Marked failed.' }),
    );
    r = await render(<OperationPage operationId="op-9" />);
    await flush();
    const result = await pressAction(r, 'ops-mark-deploy-failed', 'ops-action-result');
    expect(api.calls.find((c) => c.method === 'POST')?.url).toBe('/ops/operations/op-9/mark-deploy-failed');
    expect(result.dataset.code).toBe('MARKED_FAILED');
  });

  it('a second confirm answers ALREADY_IN_EFFECT as an error with its message', async () => {
    deployBackend(
      'DEPLOY_FAILED',
      ['CONFIRM_DEPLOYED'],
      envelope('ALREADY_IN_EFFECT', null, 409, { message: 'The request is already in effect; nothing was changed.', traceId: 'tr-9' }),
    );
    r = await render(<OperationPage operationId="op-9" />);
    await flush();
    expect(r.queryByTestId('ops-mark-deploy-failed')).toBeNull();
    await click(r.byTestId('ops-confirm-deployed'));
    await flush();
    await waitForErrorCode(r);
    expect(r.byTestId('error-code').textContent).toBe('ALREADY_IN_EFFECT');
    expect(r.byTestId('error-message').textContent).toBe('The request is already in effect; nothing was changed.');
  });

  it('shows neither button where they do not help', async () => {
    backend(() => envelope('OK', deployDetail('APPROVAL_SENT', ['CLOSE'])));
    r = await render(<OperationPage operationId="op-9" />);
    await flush();
    expect(r.queryByTestId('ops-confirm-deployed')).toBeNull();
    expect(r.queryByTestId('ops-mark-deploy-failed')).toBeNull();
  });

  it('without the server list, offers them by status only for a merged request not in effect', () => {
    expect(offersDeployAction({ status: 'DEPLOY_UNCONFIRMED' }, 'confirmdeployed')).toBe(true);
    expect(offersDeployAction({ status: 'DEPLOY_UNCONFIRMED' }, 'markdeployfailed')).toBe(true);
    expect(offersDeployAction({ status: 'MERGED' }, 'markdeployfailed')).toBe(true);
    expect(offersDeployAction({ status: 'DEPLOY_FAILED' }, 'confirmdeployed')).toBe(true);
    expect(offersDeployAction({ status: 'DEPLOY_FAILED' }, 'markdeployfailed')).toBe(false);
    expect(offersDeployAction({ status: 'VALIDATED' }, 'confirmdeployed')).toBe(false);
    expect(offersDeployAction({ status: null }, 'confirmdeployed')).toBe(false);
    expect(offersDeployAction({ status: 'MERGED', allowedActions: [] }, 'confirmdeployed')).toBe(false);
    expect(deployActionTone('CONFIRMED')).toBe('success');
    expect(deployActionTone('MARKED_FAILED')).toBe('info');
  });
});
