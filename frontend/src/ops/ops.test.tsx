import { describe, expect, it } from 'vitest';
import type { Batch, OperationDetail } from '../api/types';
import { pressAction } from '../test/actionResult';
import { waitForErrorCode } from '../test/errorNotice';
import { envelope, type Reply } from '../test/fetchMock';
import { entry, view } from '../test/fixtures';
import { click, flush, goBack, type as choose, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { BatchesPage, memberView, roundExtra, settlementExtra } from './BatchesPage';
import { ConfigPage } from './ConfigPage';
import { OperationPage } from './OperationPage';
import { consolePaths, isConsolePath } from './paths';

const { backend, render } = testSession({ at: '/console' });
let r: Rendered | null = null;

const MR = { project: 'platform/access-config', iid: 7, webUrl: 'https://gitlab.example/platform/access-config/-/merge_requests/7' };

function batch(overrides: Partial<Batch> = {}): Batch {
  return {
    id: 4,
    partition: 'global',
    status: 'BLOCKED',
    depth: 0,
    members: [
      view({ operationId: 'aaaaaaaa-1111-4111-8111-111111111111', status: 'BATCHED', targetKey: 'dashboards-viewer', subjectId: 'bob', timeline: undefined }),
      view({ operationId: 'bbbbbbbb-2222-4222-8222-222222222222', status: 'HANDLE_FAILED', targetKey: 'vpn-staging', subjectId: 'alice', timeline: undefined }),
    ],
    mergeRequest: MR,
    detail: 'pipeline failed',
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:05:00Z',
    ...overrides,
  };
}

describe('BatchesPage', () => {
  it('filters by status and partition on the server from the URL, writes a change back to it, and back restores the list', async () => {
    window.history.replaceState(null, '', '/console/batches?status=BLOCKED');
    const stored = [batch(), batch({ id: 5, status: 'SUCCEEDED', partition: 'wiki' }), batch({ id: 6, partition: 'wiki' })];
    const mock = backend((c) => {
      if (!c.url.startsWith('/ops/batches')) return envelope('NOT_FOUND', null, 404);
      const query = new URL(c.url, 'http://localhost').searchParams;
      const status = query.get('status');
      const partition = query.get('partition');
      return envelope(
        'OK',
        stored.filter((b) => (status === null || b.status === status) && (partition === null || b.partition === partition)),
      );
    });
    r = await render(<BatchesPage />);
    await flush();
    const shown = () => r!.allByTestId('batch').map((b) => b.dataset.batchId);
    const lastQuery = () => new URL(mock.calls.filter((c) => c.url.startsWith('/ops/batches')).at(-1)!.url, 'http://localhost').search;
    expect(shown()).toEqual(['4', '6']);
    expect(lastQuery()).toBe('?limit=50&status=BLOCKED');
    expect(r.byTestId<HTMLSelectElement>('batch-filter-status').value).toBe('BLOCKED');

    await choose(r.byTestId<HTMLSelectElement>('batch-filter-partition'), 'wiki');
    await flush();
    expect(window.location.search).toBe('?status=BLOCKED&partition=wiki');
    expect(lastQuery()).toBe('?limit=50&status=BLOCKED&partition=wiki');
    expect(shown()).toEqual(['6']);
    await choose(r.byTestId<HTMLSelectElement>('batch-filter-status'), 'RUNNING');
    await flush();
    expect(shown()).toEqual([]);
    expect(r.byTestId('batches-none-match').textContent).toContain('No batch matches these filters');
    // the partitions seen before stay on offer while the list is filtered
    const partitions = [...r.byTestId<HTMLSelectElement>('batch-filter-partition').options].map((o) => o.value);
    expect(partitions).toEqual(expect.arrayContaining(['global', 'wiki']));

    await goBack();
    await flush();
    expect(window.location.search).toBe('?status=BLOCKED&partition=wiki');
    expect(shown()).toEqual(['6']);
  });

  it('shows members as request views: a link to the operation and its status', async () => {
    backend((c) => (c.url.startsWith('/ops/batches') ? envelope('OK', [batch()]) : envelope('NOT_FOUND', null, 404)));
    r = await render(<BatchesPage />);
    await flush();
    const card = r.byTestId('batch');
    expect(card.dataset.batchId).toBe('4');
    expect(card.dataset.status).toBe('BLOCKED');
    const members = r.allByTestId('batch-member');
    expect(members.map((m) => m.dataset.operationId)).toEqual([
      'aaaaaaaa-1111-4111-8111-111111111111',
      'bbbbbbbb-2222-4222-8222-222222222222',
    ]);
    const link = members[0]!.querySelector('a');
    expect(link?.getAttribute('href')).toBe('/console/operations/aaaaaaaa-1111-4111-8111-111111111111');
    expect(members[0]!.querySelector('[data-status]')?.getAttribute('data-status')).toBe('BATCHED');
    expect(members[1]!.querySelector('[data-status]')?.getAttribute('data-status')).toBe('HANDLE_FAILED');
    expect(members[1]!.textContent).toContain('vpn-staging');
    // never the raw object
    expect(card.textContent).not.toContain('[object Object]');
    expect(card.textContent).not.toContain('operationId:');
    expect(r.byTestId<HTMLAnchorElement>('mr-link').href).toBe(MR.webUrl);
    expect(r.byTestId('ops-settle')).toBeTruthy();
  });

  it('reads an older server\'s bare member ids too', () => {
    expect(memberView('op-9')).toEqual({ operationId: 'op-9' });
    expect(memberView(view({ operationId: 'op-1' })).status).toBe('APPROVAL_SENT');
  });

  it('a round: CLAIMED names the batch and its members; SLOT_OCCUPIED and NOTHING_TO_CLAIM carry nulls', async () => {
    const rounds: Reply[] = [
      envelope('CLAIMED', { partition: 'global', batchId: 9, members: ['op-1', 'op-2'], scheduled: true }, 200, { message: 'Batch 9 claimed 2 request(s).' }),
      envelope('SLOT_OCCUPIED', { partition: 'global', batchId: null, members: null, scheduled: null }, 200, { message: 'Another batch is running.' }),
      envelope('CLAIMED', { partition: 'global', batchId: 10, members: ['op-3'], scheduled: false }, 200, { message: 'Batch 10 could not start.' }),
    ];
    let n = 0;
    const api = backend((c) => (c.method === 'POST' ? rounds[n++]! : envelope('OK', [])));
    r = await render(<BatchesPage />);
    await flush();

    let result = await pressAction(r, 'ops-start-round', 'batch-action-result');
    expect(api.calls.find((c) => c.method === 'POST')?.url).toBe('/ops/batch-rounds?partition=global');
    expect(result.dataset.code).toBe('CLAIMED');
    expect(result.dataset.tone).toBe('success');
    expect(result.textContent).toContain('Batch 9 took 2 request(s).');

    result = await pressAction(r, 'ops-start-round', 'batch-action-result');
    expect(result.dataset.code).toBe('SLOT_OCCUPIED');
    expect(result.textContent).toContain('Another batch is running.');
    expect(result.textContent).not.toContain('null');

    result = await pressAction(r, 'ops-start-round', 'batch-action-result');
    expect(result.dataset.tone).toBe('warning');
    expect(result.textContent).toContain('could not start; its 1 request(s) wait for a later round');
  });

  it('settling: the outcome, failure kind and plan; ALREADY_SETTLED says nothing was done, not a failure', async () => {
    const settles: Reply[] = [
      envelope('SETTLED', { batchId: 4, outcome: 'FAILED', batchStatus: 'FAILED', failureKind: 'DETERMINISTIC', plan: 'SPLIT' }),
      envelope('ALREADY_SETTLED', null, 409, { message: 'This batch had already ended.', traceId: 'tr-409' }),
    ];
    let n = 0;
    const api = backend((c) => (c.method === 'POST' ? settles[n++]! : envelope('OK', [batch()])));
    r = await render(<BatchesPage />);
    await flush();

    let result = await pressAction(r, 'ops-settle', 'batch-action-result');
    expect(api.calls.find((c) => c.method === 'POST')?.url).toBe('/ops/batches/4/settle');
    expect(result.dataset.code).toBe('SETTLED');
    expect(result.textContent).toContain('Outcome: FAILED.');
    expect(result.textContent).toContain('Failure: DETERMINISTIC.');
    expect(result.textContent).toContain('retried in two halves (SPLIT)');

    result = await pressAction(r, 'ops-settle', 'batch-action-result');
    expect(r.byTestId('batch-action-result').querySelector('[data-testid="error"]')).toBeNull();
    expect(result.dataset.code).toBe('ALREADY_SETTLED');
    expect(result.dataset.tone).toBe('info');
    expect(result.textContent).toContain('This batch had already ended.');
    expect(result.textContent).toContain('Nothing was done.');
    expect(result.textContent).toContain('tr-409');
  });

  it('words for every settlement outcome and a round without data', () => {
    expect(settlementExtra({ batchId: 1, outcome: 'RETRY_LATER', batchStatus: null, failureKind: null, plan: null })).toBe('Outcome: RETRY_LATER.');
    expect(settlementExtra({ batchId: 1, outcome: 'MERGED_WINS', batchStatus: 'SUCCEEDED', failureKind: null, plan: null })).toBe(
      'Outcome: MERGED_WINS. Batch now SUCCEEDED.',
    );
    expect(settlementExtra(null)).toBeUndefined();
    expect(roundExtra('NOTHING_TO_CLAIM', { partition: 'global', batchId: null, members: null, scheduled: null })).toBeUndefined();
  });
});

function detail(overrides: Partial<OperationDetail> = {}): OperationDetail {
  return {
    ...view({
      operationId: 'op-7',
      status: 'CREATE_FAILED',
      step: 'CREATE_FAILED',
      stepCode: 10299,
      hint: { code: 'KEEP_WAITING', message: 'Stopped at a step that can recover.' },
      detail: 'GitLab answered 500',
      mergeRequest: MR,
      timeline: [entry('SUBMITTED_CREATE_FIRST', 'MR_CREATING'), entry('CREATE_ERROR', 'CREATE_FAILED', '2026-01-01T10:00:05Z', 'GitLab answered 500')],
    }),
    binding: {
      subjectId: 'alice',
      targetKey: 'db-prod-readonly',
      status: 'CREATE_FAILED',
      operationId: 'op-7',
      expiresAt: null,
      updatedAt: '2026-01-01T10:00:05Z',
    },
    history: [
      { event: 'SUBMITTED_CREATE_FIRST', fromStep: null, toStep: 'CREATE', fromStatus: null, toStatus: 'MR_CREATING', detail: null, actor: 'alice', at: '2026-01-01T10:00:00Z' },
      { event: 'CREATE_ERROR', fromStep: 'CREATE', toStep: 'CREATE_FAILED', fromStatus: 'MR_CREATING', toStatus: 'CREATE_FAILED', detail: 'GitLab answered 500', actor: 'system', at: '2026-01-01T10:00:05Z' },
    ],
    audit: [{ actor: 'otto', action: 'RETRIGGER', subject: 'op-7', parameters: { step: 'CREATE', token: '****' }, at: '2026-01-01T10:01:00Z' }],
    allowedActions: ['RETRIGGER'],
    retriggerStep: 'CREATE',
    ...overrides,
  };
}

describe('OperationPage', () => {
  it('reads the flattened detail: both layers, binding row, history, audit and the step a re-trigger runs', async () => {
    backend((c) => (c.url === '/ops/operations/op-7' ? envelope('OK', detail()) : envelope('NOT_FOUND', null, 404)));
    r = await render(<OperationPage operationId="op-7" />);
    await flush();
    expect(r.byTestId('ops-external-state').textContent).toBe('CREATE_FAILED');
    expect(r.byTestId('ops-fine-step').textContent).toBe('CREATE_FAILED (10299)');
    expect(r.byTestId('request-status').dataset.status).toBe('CREATE_FAILED');
    expect(r.byTestId('request-detail').textContent).toContain('GitLab answered 500');
    expect(r.byTestId<HTMLAnchorElement>('mr-link').href).toBe(MR.webUrl);
    expect(r.byTestId('ops-binding').dataset.status).toBe('CREATE_FAILED');
    expect(r.byTestId('ops-binding').textContent).toContain('this request');
    expect(r.allByTestId('history-entry').map((h) => h.dataset.event)).toEqual(['SUBMITTED_CREATE_FIRST', 'CREATE_ERROR']);
    expect(r.allByTestId('history-entry')[1]!.textContent).toContain('MR_CREATING → CREATE_FAILED');
    const audit = r.allByTestId('audit-entry');
    expect(audit).toHaveLength(1);
    expect(audit[0]!.textContent).toContain('otto');
    expect(audit[0]!.textContent).toContain('step=CREATE, token=****');
    expect(r.byTestId('ops-retrigger-step').textContent).toContain('CREATE');
    expect(r.byTestId<HTMLButtonElement>('ops-retrigger').disabled).toBe(false);
    expect(r.byTestId<HTMLButtonElement>('ops-close').disabled).toBe(true);
    expect(r.container.textContent).not.toContain('[object Object]');
  });

  it('a binding owned by a newer request links to it; re-trigger NOT_SCHEDULED is a warning', async () => {
    const api = backend((c) => {
      if (c.method === 'POST') {
        return envelope('NOT_SCHEDULED', { operationId: 'op-7', step: 'CREATE', scheduled: false }, 200, { message: 'The work queue is full.' });
      }
      return envelope('OK', detail({ binding: { ...detail().binding!, operationId: 'op-8', status: 'MR_CREATING' } }));
    });
    r = await render(<OperationPage operationId="op-7" />);
    await flush();
    expect(r.byTestId('ops-binding').querySelector('a')?.getAttribute('href')).toBe('/console/operations/op-8');
    const result = await pressAction(r, 'ops-retrigger', 'ops-action-result');
    expect(api.calls.find((c) => c.method === 'POST')?.url).toBe('/ops/operations/op-7/retrigger');
    expect(result.dataset.code).toBe('NOT_SCHEDULED');
    expect(result.dataset.tone).toBe('warning');
    expect(result.textContent).toContain('Step CREATE not scheduled.');
  });

  it('ACTION_NOT_ALLOWED on close is an error with message, code and traceId', async () => {
    backend((c) =>
      c.method === 'POST'
        ? envelope('ACTION_NOT_ALLOWED', null, 409, { message: 'The request cannot be closed in its current state.', traceId: 'tr-close' })
        : envelope('OK', detail({ allowedActions: undefined })),
    );
    r = await render(<OperationPage operationId="op-7" />);
    await flush();
    await click(r.byTestId('ops-close'));
    await click(r.byTestId('ops-close-confirm'));
    await flush();
    await waitForErrorCode(r);
    expect(r.byTestId('error-code').textContent).toBe('ACTION_NOT_ALLOWED');
    expect(r.byTestId('error-message').textContent).toBe('The request cannot be closed in its current state.');
    expect(r.byTestId('error-trace-id').textContent).toBe('tr-close');
  });
});

describe('ConfigPage', () => {
  it('shows raw, resolved, rule and source of every setting', async () => {
    backend(() =>
      envelope('OK', [
        { key: 'ACCESS_MODE', raw: 'closd', resolved: 'CLOSED', rule: 'unknown value: CLOSED', source: 'file' },
        { key: 'APPLY_RATE_LIMIT', raw: null, resolved: 10, rule: 'missing: the default', source: null },
      ]),
    );
    r = await render(<ConfigPage />);
    await flush();
    const rows = r.allByTestId('config-entry');
    expect(rows.map((e) => e.dataset.key)).toEqual(['ACCESS_MODE', 'APPLY_RATE_LIMIT']);
    expect(rows[0]!.querySelector('[data-testid="config-source"]')?.textContent).toBe('file');
    expect(rows[1]!.querySelector('[data-testid="config-source"]')?.textContent).toBe('—');
    expect(rows[1]!.textContent).toContain('(not set)');
  });
});

describe('console routes', () => {
  it('live under /console, never under the server\'s /ops/ API prefix (a page load there gets JSON, not the app)', () => {
    expect(isConsolePath('/console')).toBe(true);
    expect(isConsolePath('/console/operations/x')).toBe(true);
    expect(isConsolePath('/consoles')).toBe(false);
    expect(isConsolePath('/ops')).toBe(false);
    for (const path of [consolePaths.stuck, consolePaths.batches, consolePaths.config, consolePaths.operation('a/b')]) {
      expect(path.startsWith('/ops')).toBe(false);
      expect(isConsolePath(path)).toBe(true);
    }
    expect(consolePaths.operation('a/b')).toBe('/console/operations/a%2Fb');
  });
});
