import { afterEach, describe, expect, it } from 'vitest';
import { envelope, mockFetch } from '../test/fetchMock';
import { APP_HEADER, apiRequest, forgetConditionalAnswers, NETWORK_ERROR_CODE, parseRetryAfter, safeMessage } from './client';

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

function use(handler: Parameters<typeof mockFetch>[0]) {
  const mock = mockFetch(handler);
  restore = mock.restore;
  return mock;
}

describe('apiRequest', () => {
  it('unwraps a success envelope and sends same-origin credentials and JSON', async () => {
    const { calls } = use(() => envelope('ACCEPTED', { operationId: 'op-1' }, 202, { traceId: 't-1' }));
    const result = await apiRequest<{ operationId: string }>('POST', '/api/requests', { body: { a: 1 } });
    expect(result).toEqual({ ok: true, status: 202, code: 'ACCEPTED', message: 'ACCEPTED message', data: { operationId: 'op-1' }, traceId: 't-1' });
    expect(calls[0]?.init.credentials).toBe('same-origin');
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.body).toEqual({ a: 1 });
    expect((calls[0]?.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('marks every request, reads and bodyless writes included, with the app header the server requires of writes', async () => {
    const { calls } = use(() => envelope('OK', null));
    await apiRequest('POST', '/ops/batch-rounds', { query: { partition: 'global' } });
    await apiRequest('GET', '/api/me');
    for (const call of calls) {
      expect((call.init.headers as Record<string, string>)[APP_HEADER]).toBe('XMLHttpRequest');
    }
    expect(calls).toHaveLength(2);
  });

  it('keeps code, message and traceId of an error envelope', async () => {
    use(() => envelope('REQUEST_IN_PROGRESS', null, 409, { message: 'An active request exists.', traceId: 'abc123' }));
    const result = await apiRequest('POST', '/api/requests', { body: {} });
    expect(result).toMatchObject({
      ok: false,
      kind: 'http',
      status: 409,
      code: 'REQUEST_IN_PROGRESS',
      message: 'An active request exists.',
      traceId: 'abc123',
    });
  });

  it('never passes on a raw body: an HTML error page becomes a generic message with the header traceId', async () => {
    use(() => ({
      status: 502,
      raw: '<html><body><h1>502 Bad Gateway</h1><pre>java.lang.IllegalStateException at x.y(Z.java:1)</pre></body></html>',
      headers: { 'Content-Type': 'text/html', 'X-Trace-Id': 'hdr-trace' },
    }));
    const result = await apiRequest('GET', '/api/me');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('HTTP_502');
    expect(result.traceId).toBe('hdr-trace');
    expect(result.message).not.toMatch(/html|Bad Gateway|Exception/i);
    expect(result.message).toMatch(/server/i);
  });

  it('replaces a message that looks like a stack trace or JSON dump', async () => {
    use(() => ({
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: 'java.lang.NullPointerException: boom\n\tat io.x.Y.z(Y.java:12)', data: null, traceId: 't9' },
    }));
    const result = await apiRequest('GET', '/api/targets');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('INTERNAL_ERROR');
    expect(result.traceId).toBe('t9');
    expect(result.message).not.toMatch(/Exception|Y\.java/);
  });

  it('reports a network failure as "cannot reach the server"', async () => {
    use(() => 'network-error');
    const result = await apiRequest('GET', '/api/me');
    expect(result).toMatchObject({ ok: false, kind: 'network', code: NETWORK_ERROR_CODE, status: 0, traceId: null });
    if (!result.ok) expect(result.message).toMatch(/cannot reach the server/i);
  });

  it('lists field errors of INVALID_REQUEST', async () => {
    use(() =>
      envelope('INVALID_REQUEST', { fieldErrors: [{ field: 'reason', code: 'NotBlank', message: 'Give a reason.' }, { nope: 1 }] }, 400),
    );
    const result = await apiRequest('POST', '/api/requests', { body: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors).toEqual([{ field: 'reason', code: 'NotBlank', message: 'Give a reason.' }]);
  });

  it('reads when to retry a 429 from data.retryAfterSeconds, else from Retry-After', async () => {
    use(() => envelope('RATE_LIMITED', { retryAfterSeconds: 17 }, 429));
    const fromBody = await apiRequest('POST', '/api/requests', { body: {} });
    expect(!fromBody.ok && fromBody.retryAfterSeconds).toBe(17);
    restore?.();
    use(() => ({ status: 429, body: { code: 'RATE_LIMITED', message: 'Too many', data: null, traceId: 't' }, headers: { 'Retry-After': '42' } }));
    const fromHeader = await apiRequest('POST', '/api/requests', { body: {} });
    expect(!fromHeader.ok && fromHeader.retryAfterSeconds).toBe(42);
  });

  it('drops empty query parameters', async () => {
    const { calls } = use(() => envelope('OK', []));
    await apiRequest('GET', '/ops/operations', { query: { status: '', stuckForSeconds: 600, limit: undefined } });
    expect(calls[0]?.url).toBe('/ops/operations?stuckForSeconds=600');
  });

  it('treats a 2xx answer without an envelope as unexpected, not as data', async () => {
    use(() => ({ status: 200, raw: '<!doctype html><p>index</p>', headers: { 'Content-Type': 'text/html' } }));
    const result = await apiRequest('GET', '/api/me');
    expect(result).toMatchObject({ ok: false, code: 'UNEXPECTED_RESPONSE' });
  });
});

describe('parseRetryAfter and safeMessage', () => {
  it('parses seconds and HTTP dates', () => {
    expect(parseRetryAfter('5')).toBe(5);
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).toBe(30);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });

  it('keeps ordinary sentences and caps long ones', () => {
    expect(safeMessage('Access denied', 403)).toBe('Access denied');
    expect(safeMessage('', 403)).toBe('Access denied');
    expect(safeMessage('x'.repeat(1000), 400).length).toBeLessThanOrEqual(300);
  });
});

describe('conditional reads (issue 33)', () => {
  afterEach(() => forgetConditionalAnswers());

  const ifNoneMatch = (call: { init: RequestInit } | undefined) =>
    (call?.init.headers as Record<string, string> | undefined)?.['If-None-Match'];

  it('sends the last ETag of the URL in If-None-Match and answers a 304 with the kept answer itself', async () => {
    const view = { operationId: 'op-1', status: 'MR_CREATING' };
    const { calls } = use((_call, index) =>
      index === 0
        ? { status: 200, body: { code: 'OK', message: 'm', data: view, traceId: 't1' }, headers: { ETag: 'W/"1-5-a"' } }
        : { status: 304, headers: { ETag: 'W/"1-5-a"' } },
    );

    const first = await apiRequest('GET', '/api/requests/op-1', { conditional: true });
    const second = await apiRequest('GET', '/api/requests/op-1', { conditional: true });

    expect(ifNoneMatch(calls[0])).toBeUndefined();
    expect(ifNoneMatch(calls[1])).toBe('W/"1-5-a"');
    expect(second).toBe(first);
    expect(second).toMatchObject({ ok: true, status: 200, data: view });
  });

  it('keeps the new answer and its ETag after a change, per URL', async () => {
    const { calls } = use((call, index) => {
      if (index === 0) return { status: 200, body: { code: 'OK', data: { v: 1 }, traceId: 't' }, headers: { ETag: 'W/"a"' } };
      if (index === 1) return { status: 200, body: { code: 'OK', data: { v: 2 }, traceId: 't' }, headers: { ETag: 'W/"b"' } };
      return call.url.endsWith('op-1') ? { status: 304 } : { status: 200, body: { code: 'OK', data: { v: 9 }, traceId: 't' } };
    });

    await apiRequest('GET', '/api/requests/op-1', { conditional: true });
    const changed = await apiRequest('GET', '/api/requests/op-1', { conditional: true });
    const unchanged = await apiRequest('GET', '/api/requests/op-1', { conditional: true });
    await apiRequest('GET', '/api/requests/op-2', { conditional: true });

    expect(ifNoneMatch(calls[1])).toBe('W/"a"');
    expect(ifNoneMatch(calls[2])).toBe('W/"b"');
    expect(ifNoneMatch(calls[3])).toBeUndefined();
    expect(unchanged).toBe(changed);
    expect(unchanged).toMatchObject({ ok: true, data: { v: 2 } });
  });

  it('sends no If-None-Match on reads that are not conditional', async () => {
    const { calls } = use(() => ({ status: 200, body: { code: 'OK', data: 1, traceId: 't' }, headers: { ETag: 'W/"x"' } }));
    await apiRequest('GET', '/api/targets');
    await apiRequest('GET', '/api/targets');
    expect(ifNoneMatch(calls[1])).toBeUndefined();
  });
});
