import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Binding } from '../api/types';
import { envelope, mockFetch, type RecordedCall, type Reply } from '../test/fetchMock';
import { click, flush, render, type Rendered } from '../test/render';
import { BindingsPage } from './BindingsPage';

let r: Rendered | null = null;
let restore: (() => void) | null = null;

function backend(handler: (call: RecordedCall) => Reply) {
  const mock = mockFetch(handler);
  restore = mock.restore;
  return mock;
}

beforeEach(() => {
  window.history.replaceState(null, '', '/bindings');
});

afterEach(async () => {
  await r?.unmount();
  r = null;
  restore?.();
  restore = null;
});

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
        binding({ targetKey: 'dashboards-viewer', status: 'REJECTED', operationId: null }),
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
    expect(pending![3]).toBe('2026-12-04');
    expect(rows.map((row) => row.querySelector('[data-status]')?.getAttribute('data-status'))).toEqual(['VALIDATED', 'APPROVAL_SENT', 'REJECTED']);
    expect(rows[0]!.querySelector('a')?.getAttribute('href')).toBe('/requests/aaaaaaaa-1111-4111-8111-111111111111');
    expect(rows[1]!.querySelector('a')?.getAttribute('href')).toBe('/requests/bbbbbbbb-2222-4222-8222-222222222222');
    expect(rows[2]!.querySelector('a')).toBeNull();
    expect(noRequest![5]).toBe('—');
    expect(r.container.textContent).not.toContain('You have no bindings yet.');
    expect(r.queryByTestId('loading')).toBeNull();
  });

  it('says so when there are no bindings, without a table', async () => {
    backend(() => envelope('OK', []));
    r = await render(<BindingsPage />);
    await flush();
    expect(r.queryByTestId('bindings')).toBeNull();
    expect(r.container.textContent).toContain('You have no bindings yet.');
  });

  it('a refused load shows message, code and traceId, no empty-state text, and "Try again" loads again', async () => {
    let refused = true;
    const api = backend(() =>
      refused ? envelope('ACCESS_DENIED', null, 403, { message: 'Access denied', traceId: 'tr-403' }) : envelope('OK', [binding()]),
    );
    r = await render(<BindingsPage />);
    await flush();
    const error = r.byTestId('error');
    expect(error.dataset.code).toBe('ACCESS_DENIED');
    expect(error.textContent).toContain('Could not load your bindings.');
    expect(r.byTestId('error-message').textContent).toBe('Access denied');
    expect(r.byTestId('error-trace-id').textContent).toBe('tr-403');
    expect(r.container.textContent).not.toContain('You have no bindings yet.');
    expect(r.queryByTestId('bindings')).toBeNull();

    refused = false;
    await click(Array.from(error.querySelectorAll('button')).find((b) => b.textContent === 'Try again')!);
    await flush();
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
});
