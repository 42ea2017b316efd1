import { setFetch, type FetchLike } from '../api/client';

export interface RecordedCall {
  url: string;
  method: string;
  body: unknown;
  init: RequestInit;
}

export type Reply = { status?: number; body?: unknown; headers?: Record<string, string>; raw?: string } | 'network-error';

/** An envelope reply: {code, message, data, traceId}. */
export function envelope(code: string, data: unknown = null, status = 200, extra: Partial<Record<'message' | 'traceId', string>> = {}): Reply {
  return {
    status,
    body: { code, message: extra.message ?? `${code} message`, data, traceId: extra.traceId ?? `trace-${code.toLowerCase()}` },
  };
}

/**
 * Replaces the API transport. `handler` picks the reply per call; calls are recorded.
 * Returns the recorded calls and a restore function.
 */
export function mockFetch(handler: (call: RecordedCall, index: number) => Reply | Promise<Reply>) {
  const calls: RecordedCall[] = [];
  const impl: FetchLike = async (url, init) => {
    const call: RecordedCall = {
      url,
      method: init.method ?? 'GET',
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      init,
    };
    calls.push(call);
    const reply = await handler(call, calls.length - 1);
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    const status = reply.status ?? 200;
    // a 204 or 304 has no body (the Response constructor refuses one)
    return new Response(status === 204 || status === 304 ? null : text, { status, headers: reply.headers ?? { 'Content-Type': 'application/json' } });
  };
  const previous = setFetch(impl);
  return { calls, restore: () => setFetch(previous) };
}
