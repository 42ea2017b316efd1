import { describe, expect, it } from 'vitest';
import type { Binding } from '../api/types';
import { envelope } from '../test/fetchMock';
import { formatUntilDay } from '../logic/format';
import { expectErrorNotice, tryAgain } from '../test/errorNotice';
import { TARGETS } from '../test/fixtures';
import { click, flush, submit, type, type Rendered } from '../test/render';
import { testSession } from '../test/session';
import { BindingsPage } from './BindingsPage';
import { HomePage } from './HomePage';

const { backend, render } = testSession({ at: '/bindings' });
let r: Rendered | null = null;

function binding(overrides: Partial<Binding> = {}): Binding {
  return {
    subjectId: 'alice',
    targetKey: 'db-prod-readonly',
    status: 'VALIDATED',
    operationId: 'aaaaaaaa-1111-4111-8111-111111111111',
    expiresAt: null,
    updatedAt: '2026-01-01T10:00:00Z',
    ...overrides,
  };
}

function cells(row: HTMLElement): string[] {
  return Array.from(row.querySelectorAll('td')).map((td) => td.textContent ?? '');
}

describe('BindingsPage', () => {
  it('shows one row per binding the server returns: subject, target, status, expiry and a link to its request', async () => {
    const api = backend(() =>
      envelope('OK', [
        binding(),
        binding({ subjectId: 'svc-ci', targetKey: 'vpn-staging', status: 'APPROVAL_SENT', operationId: 'bbbbbbbb-2222-4222-8222-222222222222', expiresAt: '2026-12-04' }),
        // beyond the contract (the server always names the request): the page still shows no link without one
        binding({ targetKey: 'dashboards-viewer', status: 'REJECTED', operationId: null as unknown as string }),
      ]),
    );
    r = await render(<BindingsPage />);
    await flush();
    expect(api.calls.map((c) => c.url)).toEqual(['/api/bindings']);

    const rows = r.allByTestId('binding');
    expect(rows).toHaveLength(3);
    const [inEffect, pending, noRequest] = rows.map(cells);
    expect(inEffect!.slice(0, 2)).toEqual(['alice', 'db-prod-readonly']);
    expect(inEffect![3]).toBe('Never');
    expect(pending!.slice(0, 2)).toEqual(['svc-ci', 'vpn-staging']);
    // the day the person chose (formatUntil's own cases are in logic/format.test.ts)
    expect(pending![3]).toBe(formatUntilDay('2026-12-04'));
    expect(rows.map((row) => row.querySelector('[data-status]')?.getAttribute('data-status'))).toEqual(['VALIDATED', 'APPROVAL_SENT', 'REJECTED']);
    expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe('/requests/aaaaaaaa-1111-4111-8111-111111111111');
    expect(rows[1]!.querySelector('a')?.getAttribute('href')).toBe('/requests/bbbbbbbb-2222-4222-8222-222222222222');
    expect(rows[2]!.querySelector('a')).toBeNull();
    expect(noRequest![5]).toBe('—');
    expect(r.container.textContent).not.toContain('You have no access through Changeflow yet.');
    expect(r.queryByTestId('loading')).toBeNull();
  });

  it('says so when there are no bindings, without a table', async () => {
    backend(() => envelope('OK', []));
    r = await render(<BindingsPage />);
    await flush();
    expect(r.queryByTestId('bindings')).toBeNull();
    expect(r.container.textContent).toContain('You have no access through Changeflow yet.');
  });

  it('a refused load shows message, code and traceId, no empty-state text, and "Try again" loads again', async () => {
    let refused = true;
    const api = backend(() =>
      refused ? envelope('ACCESS_DENIED', null, 403, { message: 'Access denied', traceId: 'tr-403' }) : envelope('OK', [binding()]),
    );
    r = await render(<BindingsPage />);
    await flush();
    const error = expectErrorNotice(r, { code: 'ACCESS_DENIED', title: 'Could not load your bindings.', message: 'Access denied', traceId: 'tr-403' });
    expect(r.container.textContent).not.toContain('You have no access through Changeflow yet.');
    expect(r.queryByTestId('bindings')).toBeNull();

    refused = false;
    await tryAgain(error);
    expect(api.calls).toHaveLength(2);
    expect(r.queryByTestId('error')).toBeNull();
    expect(r.allByTestId('binding')).toHaveLength(1);
  });

  it('an answer that is not the envelope (a proxy\'s HTML page) is never shown', async () => {
    backend(() => ({ status: 502, raw: '<html><body>Bad gateway from the proxy</body></html>', headers: { 'Content-Type': 'text/html', 'X-Trace-Id': 'tr-proxy' } }));
    r = await render(<BindingsPage />);
    await flush();
    expect(r.byTestId('error').dataset.code).toBe('HTTP_502');
    expect(r.container.textContent).not.toContain('Bad gateway from the proxy');
    expect(r.byTestId('error-trace-id').textContent).toBe('tr-proxy');
  });

  it('a grant in effect shows how long it has left and gives it up through the API, then reloads (issue 18)', async () => {
    const soon = new Date(Date.now() + 2 * 24 * 3600_000 + 3600_000).toISOString();
    let gaveUp = false;
    const api = backend((call) => {
      if (call.method === 'POST') {
        gaveUp = true;
        return envelope('REMOVAL_ACCEPTED', { operationId: 'cccccccc-3333-4333-8333-333333333333', status: 'REVOKING' }, 202);
      }
      return envelope('OK', [
        binding({ expiresAt: soon, status: gaveUp ? 'REVOKING' : 'VALIDATED' }),
        binding({ targetKey: 'vpn-staging', status: 'EXPIRED', expiresAt: '2026-01-01T00:00:00Z' }),
      ]);
    });
    r = await render(<BindingsPage />);
    await flush();
    const [inEffect, expired] = r.allByTestId('binding');
    expect(cells(inEffect!)[3]).toContain('(expires in 2 days)');
    expect(cells(expired!)[3]).not.toContain('expires in');
    expect(expired!.querySelector('[data-testid="give-up"]')).toBeNull();

    await click(inEffect!.querySelector<HTMLButtonElement>('[data-testid="give-up"]')!);
    await flush();
    const post = api.calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/bindings/db-prod-readonly/give-up?subjectId=alice');
    expect(api.calls.filter((c) => c.method === 'GET')).toHaveLength(2);
    const row = r.allByTestId('binding')[0]!;
    expect(row.querySelector('[data-status]')?.getAttribute('data-status')).toBe('REVOKING');
    expect(row.querySelector('[data-testid="give-up"]')).toBeNull();
  });

  it('a refused give-up says why and keeps the row', async () => {
    backend((call) =>
      call.method === 'POST'
        ? envelope('GRANT_NOT_IN_EFFECT', null, 409, { message: 'This access is not in effect right now; nothing was changed.', traceId: 'tr-409' })
        : envelope('OK', [binding()]),
    );
    r = await render(<BindingsPage />);
    await flush();
    await click(r.byTestId('give-up'));
    await flush();
    const error = r.byTestId('give-up-error');
    expect(error.dataset.code).toBe('GRANT_NOT_IN_EFFECT');
    expect(error.textContent).toContain('Could not give this access up.');
    expect(r.allByTestId('binding')).toHaveLength(1);
  });

  it('a grant whose removal was not approved can be given up, not renewed (issue 18, removals: approval)', async () => {
    backend(() => envelope('OK', [binding({ status: 'REMOVAL_REJECTED', expiresAt: '2026-01-01T00:00:00Z' })]));
    r = await render(<BindingsPage />);
    await flush();
    const row = r.allByTestId('binding')[0]!;
    expect(row.querySelector('[data-testid="give-up"]')).not.toBeNull();
    expect(row.querySelector('[data-testid="renew"]')).toBeNull();
    expect(row.textContent).toContain('Removal not approved, still in effect');
  });

  it('"Renew" is offered for a grant in effect with an expiry only', async () => {
    const until = new Date(Date.now() + 5 * 24 * 3600_000).toISOString();
    backend(() =>
      envelope('OK', [
        binding({ expiresAt: until }),
        binding({ targetKey: 'vpn-staging', expiresAt: null }),
        binding({ targetKey: 'wiki-editors', status: 'REVOKING', expiresAt: until }),
        binding({ targetKey: 'dashboards-viewer', status: 'EXPIRED', expiresAt: '2026-01-01T00:00:00Z' }),
      ]),
    );
    r = await render(<BindingsPage />);
    await flush();
    const rows = r.allByTestId('binding');
    expect(rows.map((row) => row.querySelector('[data-testid="renew"]') !== null)).toEqual([true, false, false, false]);
    expect(rows[0]!.querySelector('[data-testid="renew"]')?.getAttribute('aria-label')).toBe('Renew db-prod-readonly for alice');
  });

  it('"Renew" opens the form for the same target and subject, so only another expiry is chosen, and submits it (issue 18)', async () => {
    const until = '2026-12-04T17:00:00Z';
    const api = backend((call) => {
      if (call.url === '/api/bindings') return envelope('OK', [binding({ subjectId: 'svc-report', expiresAt: until })]);
      if (call.url === '/api/targets') return envelope('OK', TARGETS);
      if (call.method === 'POST' && call.url === '/api/requests') {
        return envelope('ACCEPTED', { operationId: (call.body as { operationId: string }).operationId, status: 'APPROVAL_SENDING' }, 202);
      }
      return envelope('PREVIEW_UNAVAILABLE', null);
    });
    r = await render(<BindingsPage />);
    await flush();
    await click(r.byTestId('renew'));
    expect(window.location.pathname).toBe('/');
    expect(window.history.state?.usr).toEqual({
      prefill: { targetKey: 'db-prod-readonly', subjectId: 'svc-report', reason: `Renewal of the access in effect until ${formatUntilDay(until)}` },
      renewing: { expiresAt: until },
    });
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await r.unmount();
    r = await render(<HomePage />);
    await flush();
    expect(r.byTestId<HTMLSelectElement>('field-target').value).toBe('db-prod-readonly');
    expect(r.byTestId<HTMLInputElement>('field-subject').value).toBe('svc-report');
    expect(r.byTestId<HTMLTextAreaElement>('field-reason').value).toBe(`Renewal of the access in effect until ${formatUntilDay(until)}`);
    expect(r.byTestId('renewal-notice').textContent).toContain(`Renewing the access of svc-report to db-prod-readonly, in effect until ${formatUntilDay(until)}`);
    expect(r.byTestId('request-form').querySelector('h2')?.textContent).toBe('Renew access');
    const expires = r.byTestId<HTMLInputElement>('field-expires');
    expect(expires.value).toBe('');
    expect(document.activeElement).toBe(expires);

    const later = new Date(Date.now() + 40 * 24 * 3600_000).toISOString().slice(0, 10);
    await type(expires, later);
    await submit(r.byTestId<HTMLFormElement>('request-form'));
    await flush();
    const post = api.calls.find((c) => c.method === 'POST' && c.url === '/api/requests')!;
    expect(post.body).toMatchObject({
      targetKey: 'db-prod-readonly',
      subjectId: 'svc-report',
      reason: `Renewal of the access in effect until ${formatUntilDay(until)}`,
      expiresAt: later,
    });
    expect(window.location.pathname).toMatch(/^\/requests\//);
  });

  it('the expiry reminder\'s link opens the renewal form of that grant, filled in (issue 32)', async () => {
    const until = '2026-12-04T17:00:00Z';
    window.history.replaceState(null, '', '/bindings?renew=db-prod-readonly&subject=svc-report');
    backend((call) => {
      if (call.url === '/api/bindings') {
        return envelope('OK', [binding(), binding({ subjectId: 'svc-report', expiresAt: until })]);
      }
      return envelope('PREVIEW_UNAVAILABLE', null);
    });
    r = await render(<BindingsPage />);
    await flush();
    expect(window.location.pathname).toBe('/');
    expect(window.history.state?.usr).toEqual({
      prefill: { targetKey: 'db-prod-readonly', subjectId: 'svc-report', reason: `Renewal of the access in effect until ${formatUntilDay(until)}` },
      renewing: { expiresAt: until },
    });
  });

  it('a reminder\'s link to a grant that is no longer renewable just shows the bindings (issue 32)', async () => {
    window.history.replaceState(null, '', '/bindings?renew=db-prod-readonly&subject=svc-gone');
    backend(() => envelope('OK', [binding({ subjectId: 'svc-gone', status: 'EXPIRED', expiresAt: '2026-01-01T00:00:00Z' })]));
    r = await render(<BindingsPage />);
    await flush();
    expect(window.location.pathname).toBe('/bindings');
    expect(r.allByTestId('binding')).toHaveLength(1);
  });
});
