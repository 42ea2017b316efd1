import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RETRYING_TITLE } from '../api/client';
import { App } from '../App';
import { waitForErrorCode } from '../test/errorNotice';
import { envelope } from '../test/fetchMock';
import { entry, TARGETS, view } from '../test/fixtures';
import { click, flush, visit, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { HomePage } from './HomePage';
import { RequestPage } from './RequestPage';

const { backend, render, reset } = testSession({ at: '/', after: () => vi.useRealTimers() });
let r: Rendered | null = null;

describe('HomePage', () => {
  it('"New request" opens a fresh form with a new operationId', async () => {
    backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('PREVIEW_UNAVAILABLE', null)));
    r = await render(<HomePage />);
    await flush();
    expect(r.allByTestId('catalog-target')).toHaveLength(2);
    await click(r.byTestId('open-request-form'));
    const first = r.byTestId('operation-id').textContent;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    await click(r.byTestId('new-request'));
    const second = r.byTestId('operation-id').textContent;
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
  });

  it('"Apply again" state pre-fills a new form', async () => {
    backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('PREVIEW_UNAVAILABLE', null)));
    visit('/', { prefill: { targetKey: 'wiki-editors', subjectId: 'bob', reason: 'Docs sprint' } });
    r = await render(<HomePage />);
    await flush();
    expect(r.byTestId<HTMLSelectElement>('field-target').value).toBe('wiki-editors');
    expect(r.byTestId<HTMLInputElement>('field-subject').value).toBe('bob');
    expect(r.byTestId<HTMLTextAreaElement>('field-reason').value).toBe('Docs sprint');
  });
});

describe('RequestPage', () => {
  it('shows status, hint, merge request link and timeline, and stops polling at a final state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const answers = [
      view({ status: 'MERGED', step: 'HANDLE_MERGED', mergeRequest: { project: 'platform/access-config', iid: 12, webUrl: 'https://gitlab.example/mr/12' } }),
      view({
        status: 'VALIDATED',
        step: 'CALLED_BACK',
        hint: { code: 'NONE', message: 'Done.' },
        mergeRequest: { project: 'platform/access-config', iid: 12, webUrl: 'https://gitlab.example/mr/12' },
        timeline: [entry('DEPLOYED', 'VALIDATED')],
      }),
    ];
    let n = 0;
    const api = backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : envelope('OK', answers[Math.min(n++, answers.length - 1)])));
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(r.byTestId('request-status').dataset.status).toBe('MERGED');
    expect(r.byTestId<HTMLAnchorElement>('mr-link').href).toBe('https://gitlab.example/mr/12');
    expect(r.byTestId('hint').dataset.hint).toBe('NONE');
    expect(r.byTestId('timeline').querySelector('[data-step="IN_EFFECT"]')?.getAttribute('data-state')).toBe('current');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    await flush();
    expect(r.byTestId('request-status').dataset.status).toBe('VALIDATED');
    expect(r.byTestId('poll-status').dataset.phase).toBe('stopped');
    expect(r.allByTestId('timeline-step').every((s) => s.dataset.state === 'done')).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    const polls = api.calls.filter((c) => c.url !== '/api/targets');
    expect(polls).toHaveLength(2);
    expect(polls[0]?.url).toBe('/api/requests/op-1');
  });

  it('CAN_REAPPLY offers "Apply again", which opens a pre-filled form', async () => {
    backend(() =>
      envelope(
        'OK',
        view({ status: 'REJECTED', hint: { code: 'CAN_REAPPLY', message: 'You can apply again.' }, reason: 'Need it', targetKey: 'wiki-editors', subjectId: 'bob' }),
      ),
    );
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    await click(r.byTestId('apply-again'));
    expect(window.location.pathname).toBe('/');
    expect(window.history.state?.usr).toEqual({ prefill: { targetKey: 'wiki-editors', subjectId: 'bob', reason: 'Need it' } });
  });

  it('expects a batch round, not a merge request of its own, for a batchable target', async () => {
    backend((c) =>
      c.url === '/api/targets'
        ? envelope('OK', TARGETS)
        : envelope('OK', view({ targetKey: 'wiki-editors', status: 'APPROVAL_SENT', timeline: [entry('SUBMITTED_APPROVE_FIRST', 'APPROVAL_SENDING')] })),
    );
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    const steps = r.allByTestId('timeline-step').map((s) => s.dataset.step);
    expect(steps).toContain('BATCH_CLAIMED');
    expect(steps).not.toContain('MR_READY');
  });

  it('shows the server\'s note on the last step', async () => {
    backend(() => envelope('OK', view({ status: 'HANDLE_FAILED', step: 'HANDLE_FAILED', detail: 'The pipeline of the merge request failed.' })));
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(r.byTestId('request-detail').textContent).toBe('Last note: The pipeline of the merge request failed.');
  });

  it('says who is expected to act and until when', async () => {
    const since = new Date(Date.now() - 12 * 60_000).toISOString();
    const deadline = new Date(Date.parse(since) + 24 * 3_600_000).toISOString();
    backend(() =>
      envelope('OK', view({
        status: 'MR_CREATING',
        step: 'CREATE_PIPELINE_PENDING',
        waiting: { waitingFor: 'PIPELINE', since, deadline, nextAttemptAt: null, checkedEverySeconds: 600, failing: null },
      })),
    );
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    const wait = r.byTestId('request-wait');
    expect(wait.dataset.waitingFor).toBe('PIPELINE');
    expect(wait.textContent).toBe('Waiting for the pipeline for 12 min; checked every 10 min; a person is asked after 24 h.');
  });

  it('shows no wait when nobody is expected to act', async () => {
    backend(() => envelope('OK', view({ status: 'VALIDATED', step: 'CALLED_BACK' })));
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(r.queryByTestId('request-wait')).toBeNull();
  });

  it('a database that does not answer shows "temporarily unavailable, retrying" and keeps polling with backoff until it answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let down = true;
    const unavailable = {
      status: 503,
      body: { code: 'UNAVAILABLE', message: 'A service we depend on is unavailable; please try again later.', data: null, traceId: 'tr-503' },
      headers: { 'Content-Type': 'application/json', 'Retry-After': '5' },
    };
    const api = backend((c) => (c.url === '/api/targets' ? envelope('OK', TARGETS) : down ? unavailable : envelope('OK', view({ status: 'MERGING' }))));
    r = await render(<RequestPage operationId="op-1" />);
    await flush();
    expect(r.byTestId('error').textContent).toContain(RETRYING_TITLE);
    expect(r.byTestId('error-code').textContent).toBe('UNAVAILABLE');
    expect(r.byTestId('poll-status').dataset.phase).toBe('waiting');
    const polls = () => api.calls.filter((c) => c.url !== '/api/targets').length;
    expect(polls()).toBe(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_999);
    });
    expect(polls()).toBe(1); // not before Retry-After
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    await flush();
    expect(polls()).toBe(2);
    expect(r.byTestId('poll-status').dataset.phase).toBe('waiting');

    down = false;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000); // the wait doubled after the second failure
    });
    await flush();
    expect(polls()).toBe(3);
    expect(r.queryByTestId('error')).toBeNull();
    expect(r.byTestId('request-status').dataset.status).toBe('MERGING');
  });

  it('a missing request shows the error with its code and stops', async () => {
    const api = backend(() => envelope('NOT_FOUND', null, 404, { message: 'Not found.', traceId: 'tr-404' }));
    r = await render(<RequestPage operationId="nope" />);
    await flush();
    expect(r.byTestId('error-code').textContent).toBe('NOT_FOUND');
    expect(r.byTestId('error-trace-id').textContent).toBe('tr-404');
    expect(r.byTestId('poll-status').dataset.phase).toBe('stopped');
    expect(api.calls.filter((c) => c.url !== '/api/targets')).toHaveLength(1);
  });
});

describe('App session', () => {
  it('offers the sandbox demo users on 401 and signs in', async () => {
    let signedIn = false;
    const api = backend((c) => {
      if (c.url === '/api/me')
        return signedIn
          ? envelope('OK', { account: 'otto', verified: true, permissions: ['ops.operator'], sandbox: true })
          : envelope('UNAUTHENTICATED', null, 401);
      if (c.url === '/sandbox/demo-users') return envelope('OK', [{ user: 'alice', role: 'requester' }, { user: 'otto', role: 'operator' }]);
      if (c.url === '/sandbox/login') {
        signedIn = true;
        return envelope('OK', null);
      }
      if (c.url === '/api/targets') return envelope('OK', TARGETS);
      return envelope('NOT_FOUND', null, 404);
    });
    r = await render(<App />);
    await flush(6);
    expect(r.byTestId('sign-in')).toBeTruthy();
    await click(r.byTestId('sign-in-as-otto'));
    await flush(6);
    expect(api.calls.find((c) => c.url === '/sandbox/login')?.body).toEqual({ user: 'otto' });
    expect(r.byTestId('current-user').textContent).toBe('otto');
    expect(r.queryByTestId('nav-ops')).not.toBeNull();
    expect(r.queryByTestId('nav-inbox')).not.toBeNull();
  });

  it('hides the operations link without ops permissions and says when the server cannot be reached', async () => {
    backend((c) =>
      c.url === '/api/me' ? envelope('OK', { account: 'alice', verified: true, permissions: [], sandbox: false }) : envelope('OK', TARGETS),
    );
    r = await render(<App />);
    await flush(6);
    expect(r.byTestId('current-user').textContent).toBe('alice');
    expect(r.queryByTestId('nav-ops')).toBeNull();
    expect(r.queryByTestId('nav-inbox')).toBeNull();
    expect(r.queryByTestId('sign-out')).toBeNull();
    await reset();

    backend(() => 'network-error');
    r = await render(<App />);
    await flush(6);
    expect(r.byTestId('error-message').textContent).toMatch(/cannot reach the server/i);
  });

  it('shows a 403 from an ops endpoint as "Access denied"', async () => {
    backend((c) => {
      if (c.url === '/api/me') return envelope('OK', { account: 'alice', verified: true, permissions: [], sandbox: true });
      if (c.url.startsWith('/ops/config')) return envelope('ACCESS_DENIED', null, 403, { message: 'Access denied', traceId: 'tr-403' });
      return envelope('OK', []);
    });
    window.history.replaceState(null, '', '/console/config');
    r = await render(<App />);
    await waitForErrorCode(r);
    expect(r.byTestId('error-message').textContent).toBe('Access denied');
    expect(r.byTestId('error-code').textContent).toBe('ACCESS_DENIED');
    expect(r.byTestId('error-trace-id').textContent).toBe('tr-403');
  });

  it('says when submissions are closed (submissionsOpen false) and when the identity is not verified', async () => {
    let me = { account: 'alice', verified: true, permissions: [] as string[], sandbox: true, submissionsOpen: false };
    backend((c) => (c.url === '/api/me' ? envelope('OK', me) : envelope('OK', TARGETS)));
    r = await render(<App />);
    await flush(6);
    expect(r.byTestId('submissions-closed').textContent).toMatch(/submissions are closed/i);
    expect(r.queryByTestId('unverified-notice')).toBeNull();
    await r.unmount();

    me = { ...me, submissionsOpen: true };
    r = await render(<App />);
    await flush(6);
    expect(r.queryByTestId('submissions-closed')).toBeNull();
    await r.unmount();

    me = { ...me, verified: false };
    r = await render(<App />);
    await flush(6);
    expect(r.byTestId('unverified-notice')).toBeTruthy();
  });
});
